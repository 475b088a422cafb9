/**
 * The keywords carriers require a sender to honour (CTIA; Twilio's defaults): a text that is one of them, alone, in
 * any case, with spaces or punctuation around it. STOP and its synonyms end texts to the number until START or a
 * synonym; HELP and INFO are answered with who is texting and how to stop.
 */
export const STOP_WORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const
export const START_WORDS = ["START", "YES", "UNSTOP"] as const
export const HELP_WORDS = ["HELP", "INFO"] as const

export type Keyword =
  | { readonly kind: "stop"; readonly word: string }
  | { readonly kind: "start"; readonly word: string }
  | { readonly kind: "help"; readonly word: string }

export const keywordOf = (body: string): Keyword | undefined => {
  const word = body
    .trim()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, "")
    .toUpperCase()
  if ((STOP_WORDS as ReadonlyArray<string>).includes(word)) return { kind: "stop", word }
  if ((START_WORDS as ReadonlyArray<string>).includes(word)) return { kind: "start", word }
  if ((HELP_WORDS as ReadonlyArray<string>).includes(word)) return { kind: "help", word }
  return undefined
}

/** The answers to the keywords, sent as the reply to the guest's text (TwiML). */
export const keywordReply = (keyword: Keyword, sender: string) =>
  keyword.kind === "stop"
    ? `${sender}: you are unsubscribed and will get no more texts from us. Reply START to subscribe again.`
    : keyword.kind === "start"
      ? `${sender}: you are subscribed again to texts about your bookings. Reply STOP to unsubscribe.`
      : `${sender}: texts about your bookings. Reply STOP to unsubscribe, START to subscribe again. Msg & data rates may apply.`
