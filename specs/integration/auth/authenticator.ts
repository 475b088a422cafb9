import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto"
import { isoCBOR } from "@simplewebauthn/server/helpers"

const b64 = (b: Uint8Array | Buffer | string) => Buffer.from(b).toString("base64url")
const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest()
const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}

/**
 * A software passkey for tests: one P-256 key made with node:crypto, answering registration ("none" attestation) and
 * sign-in requests as a platform authenticator would, for one origin. Its counter goes up at every assertion.
 */
export const softAuthenticator = (origin: string) => {
  const rpId = new URL(origin).hostname
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  const jwk = publicKey.export({ format: "jwk" })
  const credentialId = randomBytes(16)
  let counter = 0
  let userHandle: string | undefined
  const clientData = (type: string, challenge: string, from = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: from, crossOrigin: false }))

  const register = (options: { challenge: string; user: { id: string } }, from?: string) => {
    userHandle = options.user.id
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")]
      ])
    )
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(credentialId.length)
    const authData = Buffer.concat([
      sha(rpId),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      u32(counter),
      Buffer.alloc(16), // aaguid
      idLength,
      credentialId,
      Buffer.from(cose)
    ])
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", authData]
      ])
    )
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: "public-key",
      response: {
        clientDataJSON: b64(clientData("webauthn.create", options.challenge, from)),
        attestationObject: b64(attestationObject),
        transports: ["internal"]
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform"
    }
  }

  /** `handle` stands in for the userHandle the key was registered with (null: none sent). */
  const assert = (options: { challenge: string }, from?: string, handle: string | null | undefined = userHandle) => {
    counter++
    const authData = Buffer.concat([sha(rpId), Buffer.from([0x05]), u32(counter)])
    const data = clientData("webauthn.get", options.challenge, from)
    const signature = sign("sha256", Buffer.concat([authData, sha(data)]), privateKey)
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: "public-key",
      response: {
        clientDataJSON: b64(data),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(handle === undefined || handle === null ? {} : { userHandle: handle })
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform"
    }
  }
  return { register, assert, credentialId: b64(credentialId) }
}
