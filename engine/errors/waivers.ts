import { DomainError } from "./define.ts"

export class WaiverClosed extends DomainError<WaiverClosed>()("WaiverClosed") {}
export class WaiverMissing extends DomainError<WaiverMissing>()("WaiverMissing") {}
export class WaiverComplete extends DomainError<WaiverComplete>()("WaiverComplete") {}
export class WaiverNotAsked extends DomainError<WaiverNotAsked>()("WaiverNotAsked") {}
export class TooManySignatures extends DomainError<TooManySignatures>()("TooManySignatures") {}
