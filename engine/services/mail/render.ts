/**
 * Guest mail, rendered when it is sent: in the org's language and time zone, with a text and an HTML part, from
 * the built-in wording or the org's own templates (org `mail_templates`). The outbox keeps the facts (`vars`), so
 * the booking path writes no prose and a mail sent later still speaks the org's current language.
 */

import type { MailKind } from "../../schema/mailKinds.ts"

/** What a booking mail says, kept on the outbox row. */
export interface MailVars {
  readonly kind: MailKind
  readonly reference: string
  readonly offering: string
  /** The start as an instant (ISO 8601), or null for a booking without a time yet. */
  readonly starts_at: string | null
  readonly page_url: string
  readonly waiver_url?: string | null
  readonly note?: string | null
  /** A link to pay (a hold waiting for payment). */
  readonly pay_url?: string | null
  /** A hold the guest must confirm (or pay) on their page: when it lapses (ISO 8601) and its length in minutes. */
  readonly confirm_by?: string | null
  readonly confirm_minutes?: number | null
}

export interface MailTemplate {
  readonly subject?: string | undefined
  readonly text?: string | undefined
  readonly html?: string | undefined
}

export interface OrgMail {
  readonly timezone: string
  readonly locale: string
  readonly templates: Partial<Record<MailKind, MailTemplate>>
}

export interface Rendered {
  readonly subject: string
  readonly text: string
  readonly html: string
}

interface Words {
  readonly subjects: Record<MailKind, string>
  readonly when: string
  readonly page: string
  readonly waiver: string
  readonly pay: string
  readonly note: string
  /** Takes {minutes}; the lapse time follows it. */
  readonly confirm: string
}

// Subjects take {offering} and {reference}.
const WORDS: Record<string, Words> = {
  en: {
    subjects: {
      confirmed: "Booked: {offering} ({reference})",
      held: "We are holding your place: {offering} ({reference})",
      cancelled: "Cancelled: {offering} ({reference})",
      nudged: "Finish booking {offering} ({reference})",
      called_off: "Your time for {offering} was called off: pick another ({reference})",
      moved: "New time: {offering} ({reference})",
      resend: "Your booking: {offering} ({reference})",
      time_cancelled: "One time of {offering} is cancelled ({reference})"
    },
    when: "When",
    page: "Your booking page",
    waiver: "Please sign the waiver",
    pay: "Pay to confirm",
    note: "Note",
    confirm: "Confirm it (or pay) on your booking page within {minutes} minutes, or the place is let go. Held until"
  },
  nl: {
    subjects: {
      confirmed: "Geboekt: {offering} ({reference})",
      held: "We houden je plek vast: {offering} ({reference})",
      cancelled: "Geannuleerd: {offering} ({reference})",
      nudged: "Rond je boeking af: {offering} ({reference})",
      called_off: "Je tijd voor {offering} gaat niet door: kies een andere ({reference})",
      moved: "Nieuwe tijd: {offering} ({reference})",
      resend: "Je boeking: {offering} ({reference})",
      time_cancelled: "Eén tijd van {offering} is geannuleerd ({reference})"
    },
    when: "Wanneer",
    page: "Je boekingspagina",
    waiver: "Onderteken de verklaring",
    pay: "Betaal om te bevestigen",
    note: "Opmerking",
    confirm:
      "Bevestig (of betaal) binnen {minutes} minuten op je boekingspagina, anders vervalt de plek. Vastgehouden tot"
  },
  de: {
    subjects: {
      confirmed: "Gebucht: {offering} ({reference})",
      held: "Wir halten Ihren Platz frei: {offering} ({reference})",
      cancelled: "Storniert: {offering} ({reference})",
      nudged: "Buchung abschließen: {offering} ({reference})",
      called_off: "Ihr Termin für {offering} fällt aus: bitte einen anderen wählen ({reference})",
      moved: "Neuer Termin: {offering} ({reference})",
      resend: "Ihre Buchung: {offering} ({reference})",
      time_cancelled: "Ein Termin von {offering} fällt aus ({reference})"
    },
    when: "Wann",
    page: "Ihre Buchungsseite",
    waiver: "Bitte unterschreiben Sie die Erklärung",
    pay: "Zum Bestätigen bezahlen",
    note: "Hinweis",
    confirm:
      "Bestätigen (oder bezahlen) Sie innerhalb von {minutes} Minuten auf Ihrer Buchungsseite, sonst wird der Platz frei. Reserviert bis"
  },
  fr: {
    subjects: {
      confirmed: "Réservé : {offering} ({reference})",
      held: "Nous gardons votre place : {offering} ({reference})",
      cancelled: "Annulé : {offering} ({reference})",
      nudged: "Terminez votre réservation : {offering} ({reference})",
      called_off: "Votre créneau pour {offering} est annulé : choisissez-en un autre ({reference})",
      moved: "Nouvel horaire : {offering} ({reference})",
      resend: "Votre réservation : {offering} ({reference})",
      time_cancelled: "Un créneau de {offering} est annulé ({reference})"
    },
    when: "Quand",
    page: "Votre page de réservation",
    waiver: "Merci de signer la décharge",
    pay: "Payer pour confirmer",
    note: "Note",
    confirm:
      "Confirmez (ou payez) sur votre page de réservation dans les {minutes} minutes, sinon la place est libérée. Réservée jusqu'à"
  },
  es: {
    subjects: {
      confirmed: "Reservado: {offering} ({reference})",
      held: "Guardamos tu plaza: {offering} ({reference})",
      cancelled: "Cancelado: {offering} ({reference})",
      nudged: "Termina tu reserva: {offering} ({reference})",
      called_off: "Tu horario de {offering} se ha anulado: elige otro ({reference})",
      moved: "Nuevo horario: {offering} ({reference})",
      resend: "Tu reserva: {offering} ({reference})",
      time_cancelled: "Un horario de {offering} se ha cancelado ({reference})"
    },
    when: "Cuándo",
    page: "Tu página de reserva",
    waiver: "Firma la exención, por favor",
    pay: "Paga para confirmar",
    note: "Nota",
    confirm:
      "Confírmala (o paga) en tu página de reserva en {minutes} minutos o la plaza quedará libre. Reservada hasta"
  }
}

const wordsFor = (locale: string): Words => WORDS[locale.toLowerCase().split("-")[0]] ?? WORDS.en

/** Making an Intl.DateTimeFormat costs more than a booking's mail otherwise does: one per locale and zone, kept. */
const formats = new Map<string, Intl.DateTimeFormat>()
const whenFormat = (locale: string, timezone: string) => {
  const key = `${locale}|${timezone}`
  let f = formats.get(key)
  if (f === undefined) {
    if (formats.size >= 1_000) formats.clear()
    f = new Intl.DateTimeFormat(locale, {
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: timezone
    })
    formats.set(key, f)
  }
  return f
}

const UTC_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
const UTC_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`)

/**
 * The plain English UTC rendering every booking's mail row keeps (see bookingMail), without Intl: formatToParts was
 * most of that mail's cost. specs/unit/mail/render.test.ts holds it equal to the Intl rendering.
 */
export const formatWhenUtcEnglish = (instant: Date): string =>
  `${UTC_DAYS[instant.getUTCDay()]} ${instant.getUTCDate()} ${UTC_MONTHS[instant.getUTCMonth()]} ${instant.getUTCFullYear()}, ${two(instant.getUTCHours())}:${two(instant.getUTCMinutes())} (UTC)`

/** "Tue 24 Nov 2026, 09:00 (Europe/Amsterdam)", with day and month names in the locale's language. */
export const formatWhen = (instant: Date, timezone: string, locale: string): string =>
  timezone === "UTC" && locale === "en" && instant.getUTCFullYear() >= 1000 && instant.getUTCFullYear() <= 9999
    ? formatWhenUtcEnglish(instant)
    : formatWhenIntl(instant, timezone, locale)

export const formatWhenIntl = (instant: Date, timezone: string, locale: string): string => {
  const parts = Object.fromEntries(
    whenFormat(locale, timezone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value])
  )
  const strip = (s: string | undefined) => (s ?? "").replace(/\.$/, "")
  return `${strip(parts.weekday)} ${parts.day} ${strip(parts.month)} ${parts.year}, ${parts.hour}:${parts.minute} (${timezone})`
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** Replaces {{name}} with the value (escaped for HTML when asked); an unknown name becomes empty. */
const fill = (template: string, values: Record<string, string>, html: boolean) =>
  template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, name: string) => {
    const v = values[name] ?? ""
    return html ? escapeHtml(v) : v
  })

export const renderMail = (vars: MailVars, org: OrgMail): Rendered => {
  const w = wordsFor(org.locale)
  const when = vars.starts_at === null ? "" : formatWhen(new Date(vars.starts_at), org.timezone, org.locale)
  const values: Record<string, string> = {
    reference: vars.reference,
    offering: vars.offering,
    when,
    page_url: vars.page_url,
    waiver_url: vars.waiver_url ?? "",
    pay_url: vars.pay_url ?? "",
    note: vars.note ?? ""
  }
  const own = org.templates[vars.kind] ?? {}
  const subject =
    own.subject !== undefined
      ? fill(own.subject, values, false)
      : w.subjects[vars.kind].replace("{offering}", vars.offering).replace("{reference}", vars.reference)
  const lines: Array<[label: string, value: string, link: boolean]> = [
    ...(when ? [[w.when, when, false] as [string, string, boolean]] : []),
    [w.page, vars.page_url, true],
    ...(vars.pay_url ? [[w.pay, vars.pay_url, true] as [string, string, boolean]] : []),
    ...(vars.waiver_url ? [[w.waiver, vars.waiver_url, true] as [string, string, boolean]] : []),
    ...(vars.note ? [[w.note, vars.note, false] as [string, string, boolean]] : []),
    ...(vars.confirm_by
      ? [
          [
            w.confirm.replace("{minutes}", String(vars.confirm_minutes ?? 30)),
            formatWhen(new Date(vars.confirm_by), org.timezone, org.locale),
            false
          ] as [string, string, boolean]
        ]
      : [])
  ]
  const text =
    own.text !== undefined
      ? fill(own.text, values, false)
      : [`${subject}.`, ...lines.map(([label, value]) => `${label}: ${value}`)].join("\n")
  const lang = escapeHtml(org.locale)
  const html =
    own.html !== undefined
      ? fill(own.html, values, true)
      : [
          `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
          `<p>${escapeHtml(subject)}.</p>`,
          ...lines.map(([label, value, link]) =>
            link
              ? `<p><a href="${escapeHtml(value)}">${escapeHtml(label)}</a></p>`
              : `<p>${escapeHtml(label)}: ${escapeHtml(value)}</p>`
          ),
          `</body></html>`
        ].join("\n")
  return { subject, text, html }
}
