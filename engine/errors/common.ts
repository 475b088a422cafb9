import { DomainError } from "./define.ts"

/** A resource that does not exist in the caller's org (another org's id too). */
export class NotFound extends DomainError<NotFound>()("NotFound") {}
/** A staff member's key asking for what only an owner may do, or an origin the org does not allow. */
export class Forbidden extends DomainError<Forbidden>()("Forbidden") {}
export class InvalidBody extends DomainError<InvalidBody>()("InvalidBody") {}
export class InvalidAfter extends DomainError<InvalidAfter>()("InvalidAfter") {}
export class IdempotencyInProgress extends DomainError<IdempotencyInProgress>()("IdempotencyInProgress") {}
export class IdempotencyKeyReused extends DomainError<IdempotencyKeyReused>()("IdempotencyKeyReused") {}
export class ClockNotTest extends DomainError<ClockNotTest>()("ClockNotTest") {}

export const notFound = (what: string) => new NotFound({ message: `${what} not found` })
