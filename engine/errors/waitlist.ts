import { DomainError } from "./define.ts"

export class WaitlistNotSupported extends DomainError<WaitlistNotSupported>()("WaitlistNotSupported") {}
export class WaitlistDisabled extends DomainError<WaitlistDisabled>()("WaitlistDisabled") {}
export class WaitlistConflict extends DomainError<WaitlistConflict>()("WaitlistConflict") {}
export class InvalidPlaces extends DomainError<InvalidPlaces>()("InvalidPlaces") {}
export class HasRoom extends DomainError<HasRoom>()("HasRoom") {}
