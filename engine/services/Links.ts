import { Context } from "effect"

/** Where guests are sent: the guest page /b/{handle} and the waiver page /w/{token} under PUBLIC_URL. */
export class Links extends Context.Reference<Links>()("Links", {
  defaultValue: () => ({ publicUrl: "http://127.0.0.1:3000" })
}) {}

export const guestPage = (publicUrl: string, handle: string) => `${publicUrl}/b/${handle}`
/** A fresh checkout for a held booking, opened when the guest follows it (the nudge mail's link). */
export const payAgainPage = (publicUrl: string, handle: string) => `${publicUrl}/pay/again/${handle}`
export const waiverPage = (publicUrl: string, token: string) => `${publicUrl}/w/${token}`
