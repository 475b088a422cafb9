import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Mail waiting to go out in a queue of its own (`mail_queue`: the mail's id and when it is due) instead of a partial
 * index over the outbox. The sender leases a mail by moving its due time in the queue, and takes it off the queue once
 * the mail server has it. Before, the lease and the "sent" each rewrote the whole outbox row (about 550 bytes) with an
 * entry in each of its four indexes: `next_at` and `sent_at` were in the due index. Now the lease rewrites a queue row
 * of two columns, and marking a mail sent changes no indexed column of the outbox, so with room left on its page
 * (fillfactor 50: a mail is written once and updated about once) Postgres updates it in place (HOT), with no index
 * entry. `mail_outbox.next_at` still says when the next attempt is due (null once sent or given up); the queue's due
 * time is the one the sender reads, and it also holds leases.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table mail_queue (mail_id uuid primary key, due_at timestamptz not null);
    create index mail_queue_due on mail_queue (due_at);
    insert into mail_queue (mail_id, due_at)
      select id, coalesce(next_at, created_at) from mail_outbox where sent_at is null and failed_at is null;
    drop index mail_outbox_due;
    alter table mail_outbox set (fillfactor = 50);
  `)
})
