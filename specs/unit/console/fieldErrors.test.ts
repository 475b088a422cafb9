import { describe, expect, it } from "vitest"
import { fieldError, plain, screenName } from "../../../console/fieldErrors.ts"

describe("an API refusal beside its field", () => {
  it("takes error.param when the API gives it, else the message's leading path", () => {
    expect(fieldError("duration_minutes", "Expected a number between 5 and 43200, actual 3")).toEqual({
      path: "duration_minutes",
      text: "Type a number from 5 to 43200."
    })
    expect(fieldError(undefined, "duration_minutes: Expected a number between 5 and 43200, actual 3")).toEqual({
      path: "duration_minutes",
      text: "Type a number from 5 to 43200."
    })
    expect(fieldError("hours[1].start_time", "hours[1].start_time: end_time must be after start_time")).toEqual({
      path: "hours[1].start_time",
      text: "The closing time must be after the opening time."
    })
    expect(fieldError(undefined, "hours[1]: end_time must be after start_time")?.path).toBe("hours[1]")
    expect(fieldError(undefined, "the session has ended: sign in again")).toBeUndefined()
  })

  it("says a plain sentence, never a JSON dump", () => {
    expect(plain("must be 1 to 120 characters")).toBe("Required, at most 120 characters.")
    expect(plain('Expected an array of at most 6 items, actual [{"label":"a"}]')).toBe("At most 6.")
    expect(plain('Expected { "a": 1 }, actual {"b":2}')).toBe("This value is not accepted.")
    expect(plain("unknown field")).toBe("Not a field this form can send.")
  })

  it("names rows as the screen counts them: hours[1] is day 2", () => {
    expect(screenName("hours[1].start_time", "day")).toBe("day 2")
    expect(screenName("duration_minutes")).toBe("duration_minutes")
  })
})
