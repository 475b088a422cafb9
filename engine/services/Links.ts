import { Context } from "effect"

/** Where guests are sent: the guest page /b/{handle} and the waiver page /w/{token} under PUBLIC_URL. */
export class Links extends Context.Reference<Links>()("Links", {
  defaultValue: () => ({ publicUrl: "http://127.0.0.1:3000" })
}) {}

export const guestPage = (publicUrl: string, handle: string) => `${publicUrl}/b/${handle}`
export const waiverPage = (publicUrl: string, token: string) => `${publicUrl}/w/${token}`
