import EmailReplyParser from "email-reply-parser"

/** reply+<token>@any-domain: the conversation's address. */
const TOKEN = /^reply\+([a-f0-9]{24})@/i
export const tokenOf = (address: string) => TOKEN.exec(address.trim())?.[1]?.toLowerCase()

/** Only what the guest wrote now: quoted replies and signatures removed (email-reply-parser). */
export const newText = (text: string) => new EmailReplyParser().parseReply(text.replace(/\r\n/g, "\n")).trim()
