import { ApiError } from "./api.ts"

export const message = (e: unknown) =>
  e instanceof ApiError ? e.message : "The booking service could not be reached. Try again."

export type Heading = (text: string) => preact.JSX.Element

/** Days of times shown at once. */
export const WINDOW_DAYS = 14
