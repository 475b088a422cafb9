import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  formatWhen,
  formatWhenIntl,
  formatWhenUtcEnglish,
  type MailVars,
  renderMail
} from "../../../engine/services/mail/render.ts"

const vars: MailVars = {
  kind: "confirmed",
  reference: "BK-7Q2M",
  offering: "Yoga <flow> & stretch",
  starts_at: "2026-11-24T08:00:00.000Z",
  page_url: "https://book.example/b/h4ndl3",
  waiver_url: null,
  note: null
}

describe("guest mail rendering", () => {
  it("renders UTC in English without Intl exactly as Intl does, for any instant of years 1000 to 9999", () => {
    expect(formatWhen(new Date("2026-11-24T08:05:00Z"), "UTC", "en")).toBe("Tue 24 Nov 2026, 08:05 (UTC)")
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }),
        (d) => {
          expect(formatWhenUtcEnglish(d)).toBe(formatWhenIntl(d, "UTC", "en"))
          expect(formatWhen(d, "UTC", "en")).toBe(formatWhenIntl(d, "UTC", "en"))
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("says the time in the org's zone and language", () => {
    expect(formatWhen(new Date("2026-11-24T08:00:00Z"), "Europe/Amsterdam", "en")).toBe(
      "Tue 24 Nov 2026, 09:00 (Europe/Amsterdam)"
    )
    expect(formatWhen(new Date("2026-11-24T08:00:00Z"), "America/New_York", "en")).toBe(
      "Tue 24 Nov 2026, 03:00 (America/New_York)"
    )
    expect(formatWhen(new Date("2026-11-24T08:00:00Z"), "Europe/Amsterdam", "nl")).toBe(
      "di 24 nov 2026, 09:00 (Europe/Amsterdam)"
    )
    expect(formatWhen(new Date("2026-11-24T08:00:00Z"), "Europe/Berlin", "de")).toBe(
      "Di 24 Nov 2026, 09:00 (Europe/Berlin)"
    )
  })

  it("has a text and an HTML part, the HTML escaped and linking the booking page", () => {
    const m = renderMail(vars, { timezone: "Europe/Amsterdam", locale: "en", templates: {} })
    expect(m.subject).toBe("Booked: Yoga <flow> & stretch (BK-7Q2M)")
    expect(m.text).toBe(
      [
        "Booked: Yoga <flow> & stretch (BK-7Q2M).",
        "When: Tue 24 Nov 2026, 09:00 (Europe/Amsterdam)",
        "Your booking page: https://book.example/b/h4ndl3"
      ].join("\n")
    )
    expect(m.html).toContain('<html lang="en">')
    expect(m.html).toContain("Yoga &lt;flow&gt; &amp; stretch")
    expect(m.html).not.toContain("<flow>")
    expect(m.html).toContain('<a href="https://book.example/b/h4ndl3">Your booking page</a>')
  })

  it("speaks the org's language, and English for a language it does not know", () => {
    expect(renderMail(vars, { timezone: "Europe/Amsterdam", locale: "nl", templates: {} }).text.split("\n")[1]).toBe(
      "Wanneer: di 24 nov 2026, 09:00 (Europe/Amsterdam)"
    )
    expect(renderMail(vars, { timezone: "Europe/Paris", locale: "fr-CA", templates: {} }).subject).toBe(
      "Réservé : Yoga <flow> & stretch (BK-7Q2M)"
    )
    expect(renderMail(vars, { timezone: "Asia/Tokyo", locale: "ja", templates: {} }).subject).toBe(
      "Booked: Yoga <flow> & stretch (BK-7Q2M)"
    )
  })

  it("uses the org's own template for a kind it overrides, placeholders filled (escaped in HTML), others built in", () => {
    const templates = {
      confirmed: {
        subject: "See you at {{offering}}",
        text: "Ref {{reference}} on {{when}}. {{unknown}}Manage: {{page_url}}",
        html: "<b>{{offering}}</b>"
      }
    }
    const m = renderMail(vars, { timezone: "Europe/Amsterdam", locale: "en", templates })
    expect(m.subject).toBe("See you at Yoga <flow> & stretch")
    expect(m.text).toBe(
      "Ref BK-7Q2M on Tue 24 Nov 2026, 09:00 (Europe/Amsterdam). Manage: https://book.example/b/h4ndl3"
    )
    expect(m.html).toBe("<b>Yoga &lt;flow&gt; &amp; stretch</b>")
    expect(renderMail({ ...vars, kind: "cancelled" }, { timezone: "UTC", locale: "en", templates }).subject).toBe(
      "Cancelled: Yoga <flow> & stretch (BK-7Q2M)"
    )
  })
})
