export { insertMail, type OutboxRow } from "../../store/mail.ts"

/** Waits after failed attempts 1..4; the fifth failure gives up (failed_at and last_error stay on the row). */
export const BACKOFF_SECONDS: ReadonlyArray<number> = [60, 300, 1800, 7200]
export const MAX_ATTEMPTS = BACKOFF_SECONDS.length + 1
/** A claimed row is due again after this long, so mail survives an instance that dies mid-send. */
export const LEASE_SECONDS = 600
export const BATCH = 50
/** Batches one pass of the mail job sends at most (it goes on while they come full and all were taken): 1,000 mails. */
export const MAX_BATCHES = 20
/**
 * Mails an instance sends between two vacuums of mail_queue. Deleted queue rows stay in its indexes until a vacuum,
 * and each claim walks past them: PGlite runs no autovacuum (after 200,000 rows through a queue, a read of it took 1.7
 * against 0.9 ms; 0.6 after a vacuum). On Postgres autovacuum does it too; this one costs a few ms per 10,000 mails.
 */
export const VACUUM_EVERY = 10_000

/** Why a mail to a guest who complained is not sent (the outbox row's last_error, their message's failure_reason). */
export const COMPLAINED =
  "not sent: the guest reported this org's mail as spam; they are mailed again once they write in"

/** What a failed attempt leaves behind: when to retry, or that it is over. */
export const afterFailure = (attempts: number, now: Date) =>
  attempts >= MAX_ATTEMPTS
    ? { next_at: null, failed_at: now }
    : { next_at: new Date(now.getTime() + BACKOFF_SECONDS[attempts - 1] * 1000), failed_at: null }
