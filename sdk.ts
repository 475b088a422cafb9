/**
 * For webhook receivers: check `Service-Signature` on the raw body before parsing it.
 *
 *   const result = verifySignature({ header: req.headers["service-signature"], rawBody, secrets: process.env.SIGNING_SECRET })
 *   if (!result.ok) return res.writeHead(400).end(result.reason)
 */
export { sign, type VerifyInput, type VerifyResult, verifySignature } from "./transports/webhooks/signature.ts"
