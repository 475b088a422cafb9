/** The booking mails a guest gets, each of which an org may word its own way (org.mail_templates). */
export const MAIL_KINDS = [
  "confirmed",
  "held",
  "cancelled",
  "nudged",
  "called_off",
  "moved",
  "resend",
  "time_cancelled"
] as const
export type MailKind = (typeof MAIL_KINDS)[number]
