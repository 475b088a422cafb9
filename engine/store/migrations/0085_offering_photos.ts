import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** An offering's photo (PUT /api/v1/offerings/{id}/photo): the JPEG itself, kept in Postgres, served at photo_url. */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    create table offering_photos (
      offering_id uuid primary key references offerings(id),
      org_id uuid not null references orgs(id),
      bytes bytea not null,
      width integer not null,
      height integer not null,
      etag text not null,
      updated_at timestamptz not null
    );
  `)
})
