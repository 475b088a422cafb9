import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON
} from "@simplewebauthn/server"
import { Effect } from "effect"
import { notFound, PasskeyRefused } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { authSessionStore } from "../../store/authSessions.ts"
import { type PasskeyRow, userStore } from "../../store/users.ts"
import { fn } from "../../tracing.ts"
import { Auth, type Signed } from "./Auth.ts"
import { CHALLENGE_MINUTES, sha256 } from "./tokens.ts"

const toPasskey = (r: Pick<PasskeyRow, "id" | "name" | "created_at" | "last_used_at">) => ({
  id: r.id,
  name: r.name,
  created_at: r.created_at.toISOString(),
  last_used_at: r.last_used_at?.toISOString() ?? null
})

/** @simplewebauthn/server and its ASN.1 and X.509 kin (about 0.8 MB) are loaded at the first passkey, not at start. */
const webauthn = () => import("@simplewebauthn/server")

const transportsOf = (p: PasskeyRow) => [...p.transports] as Array<AuthenticatorTransportFuture>
const refused = (why: string) => new PasskeyRefused({ message: `the passkey could not be used: ${why}` })
/** The user id a sign-in response names (its userHandle, base64url of the id's UTF-8 bytes), if it names one. */
const ownerOf = (response: unknown) => {
  const handle = (response as { response?: { userHandle?: unknown } } | null)?.response?.userHandle
  return typeof handle === "string" && handle !== "" ? Buffer.from(handle, "base64url").toString("utf8") : undefined
}
const reason = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): a signed-in person registers discoverable credentials; anyone may sign
 * in with one. The relying party is PUBLIC_URL (its host the RP id, its origin the expected origin). Each challenge
 * is kept (hashed holder: the session, or the sign-in cookie) for five minutes and answered once.
 */
export class Passkeys extends Effect.Service<Passkeys>()("Passkeys", {
  dependencies: [Auth.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const auth = yield* Auth
    const users = userStore(sql)
    const store = authSessionStore(sql)
    const origin = new URL((yield* Links).publicUrl).origin
    const rpID = new URL(origin).hostname

    const keepChallenge = (holder: string, kind: "register" | "sign_in", challenge: string, userId: string | null) =>
      Effect.flatMap(clock.now, (now) =>
        store.addChallenge({
          id: randomUUID(),
          holder_hash: sha256(holder),
          challenge,
          kind,
          user_id: userId,
          expires_at: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000)
        })
      )

    const registrationOptions = fn("Passkeys.registrationOptions")(function* (signed: Signed) {
      const existing = yield* users.passkeys(signed.user.id)
      const options = yield* Effect.promise(() =>
        webauthn().then((w) =>
          w.generateRegistrationOptions({
            rpName: "Booking engine",
            rpID,
            userName: signed.user.email,
            userDisplayName: signed.user.name ?? signed.user.email,
            userID: new TextEncoder().encode(signed.user.id),
            attestationType: "none",
            excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
            authenticatorSelection: { residentKey: "required", userVerification: "preferred" }
          })
        )
      )
      yield* keepChallenge(`register:${signed.session.id}`, "register", options.challenge, signed.user.id)
      return options
    })

    const register = fn("Passkeys.register")(function* (signed: Signed, response: unknown, name: string | undefined) {
      const now = yield* clock.now
      const challenge = yield* store.takeChallenge(sha256(`register:${signed.session.id}`), "register", now)
      if (challenge === undefined) return yield* refused("ask for new options first (they last 5 minutes, once)")
      const verified = yield* Effect.tryPromise(() =>
        webauthn().then((w) =>
          w.verifyRegistrationResponse({
            response: response as RegistrationResponseJSON,
            expectedChallenge: challenge.challenge,
            expectedOrigin: origin,
            expectedRPID: rpID,
            requireUserVerification: false
          })
        )
      ).pipe(Effect.mapError((e) => refused(reason(e))))
      if (!verified.verified) return yield* refused("the response does not verify")
      const credential = verified.registrationInfo.credential
      const row = {
        id: randomUUID(),
        user_id: signed.user.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: name ?? null,
        created_at: now
      }
      if (!(yield* users.addPasskey(row))) return yield* refused("this passkey is registered already")
      return toPasskey({ ...row, last_used_at: null })
    })

    const list = fn("Passkeys.list")(function* (signed: Signed) {
      return (yield* users.passkeys(signed.user.id)).map(toPasskey)
    })
    const remove = fn("Passkeys.remove")(function* (signed: Signed, id: string) {
      if (!(yield* users.removePasskey(signed.user.id, id, yield* clock.now))) return yield* notFound("passkey")
    })

    /** Options for signing in with any passkey of this site (discoverable): the challenge kept for the holder cookie. */
    const signInOptions = fn("Passkeys.signInOptions")(function* (holder: string) {
      const options = yield* Effect.promise(() =>
        webauthn().then((w) => w.generateAuthenticationOptions({ rpID, userVerification: "preferred" }))
      )
      yield* keepChallenge(`sign_in:${holder}`, "sign_in", options.challenge, null)
      return options
    })

    /** Verifies an assertion against the holder's challenge and the stored key, then starts a session. */
    const signIn = fn("Passkeys.signIn")(function* (
      holder: string,
      response: unknown,
      userAgent: string | undefined,
      previous: string | undefined
    ) {
      const now = yield* clock.now
      const challenge = yield* store.takeChallenge(sha256(`sign_in:${holder}`), "sign_in", now)
      if (challenge === undefined) return yield* refused("ask for new options first (they last 5 minutes, once)")
      const id = (response as { id?: unknown } | null)?.id
      const found = typeof id === "string" ? yield* users.passkeyByCredential(id) : undefined
      // A discoverable sign-in names its person (userHandle, the user id the passkey was made for): it must be the
      // passkey's owner, or the answer is the one an unknown passkey gets.
      const passkey = found !== undefined && ownerOf(response) === found.user_id ? found : undefined
      if (passkey === undefined) return yield* refused("this passkey is not registered here")
      const verified = yield* Effect.tryPromise(() =>
        webauthn().then((w) =>
          w.verifyAuthenticationResponse({
            response: response as AuthenticationResponseJSON,
            expectedChallenge: challenge.challenge,
            expectedOrigin: origin,
            expectedRPID: rpID,
            credential: {
              id: passkey.credential_id,
              publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
              counter: Number(passkey.counter),
              transports: transportsOf(passkey)
            },
            requireUserVerification: false
          })
        )
      ).pipe(Effect.mapError((e) => refused(reason(e))))
      if (!verified.verified) return yield* refused("the response does not verify")
      yield* users.usedPasskey(passkey.id, verified.authenticationInfo.newCounter, now)
      const user = (yield* users.byId(passkey.user_id))!
      return yield* auth.start(user.email, userAgent, previous)
    })

    return { registrationOptions, register, list, remove, signInOptions, signIn } as const
  })
}) {}
