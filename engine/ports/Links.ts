import { Context } from "effect"

/** Where guests are sent: the guest page /b/{handle} and the waiver page /w/{token} under PUBLIC_URL. */
export class Links extends Context.Reference<Links>()("Links", {
  defaultValue: (): { readonly publicUrl: string; readonly mailDomain?: string | undefined } => ({
    publicUrl: "http://127.0.0.1:3000"
  })
}) {}

/** A conversation's reply address: reply+<token>@<domain> (the org's reply_to_domain, else MAIL_DOMAIN). */
export const replyAddress = (token: string, domain: string) => `reply+${token}@${domain}`

export const guestPage = (publicUrl: string, handle: string) => `${publicUrl}/b/${handle}`
/** A fresh checkout for a held booking, opened when the guest follows it (the nudge mail's link). */
export const payAgainPage = (publicUrl: string, handle: string) => `${publicUrl}/pay/again/${handle}`
export const waiverPage = (publicUrl: string, token: string) => `${publicUrl}/w/${token}`
