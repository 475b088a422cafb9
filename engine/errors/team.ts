import { DomainError } from "./define.ts"

export class NotAMember extends DomainError<NotAMember>()("NotAMember") {}
export class MemberExists extends DomainError<MemberExists>()("MemberExists") {}
export class InviteExists extends DomainError<InviteExists>()("InviteExists") {}
export class InviteExpired extends DomainError<InviteExpired>()("InviteExpired") {}
export class LastOwner extends DomainError<LastOwner>()("LastOwner") {}
export class SlugTaken extends DomainError<SlugTaken>()("SlugTaken") {}
export class CurrencyLocked extends DomainError<CurrencyLocked>()("CurrencyLocked") {}
export class InvalidEmail extends DomainError<InvalidEmail>()("InvalidEmail") {}
export class PasskeyRefused extends DomainError<PasskeyRefused>()("PasskeyRefused") {}
export class CsrfFailed extends DomainError<CsrfFailed>()("CsrfFailed") {}
