import { DomainError } from "./define.ts"

export class GiftCardUnknown extends DomainError<GiftCardUnknown>()("GiftCardUnknown") {}
export class GiftCardEmpty extends DomainError<GiftCardEmpty>()("GiftCardEmpty") {}
export class BalanceBelowZero extends DomainError<BalanceBelowZero>()("BalanceBelowZero") {}
export class InvalidAmount extends DomainError<InvalidAmount>()("InvalidAmount") {}
export class InvalidDiscount extends DomainError<InvalidDiscount>()("InvalidDiscount") {}
export class InvalidOfferingIds extends DomainError<InvalidOfferingIds>()("InvalidOfferingIds") {}
export class PromoCodeUnknown extends DomainError<PromoCodeUnknown>()("PromoCodeUnknown") {}
export class PromoCodeInactive extends DomainError<PromoCodeInactive>()("PromoCodeInactive") {}
export class PromoCodeNotStarted extends DomainError<PromoCodeNotStarted>()("PromoCodeNotStarted") {}
export class PromoCodeExpired extends DomainError<PromoCodeExpired>()("PromoCodeExpired") {}
export class PromoCodeUsedUp extends DomainError<PromoCodeUsedUp>()("PromoCodeUsedUp") {}
export class PromoCodeNotForOffering extends DomainError<PromoCodeNotForOffering>()("PromoCodeNotForOffering") {}
export class PromoCodeExists extends DomainError<PromoCodeExists>()("PromoCodeExists") {}
export class MaxUsesBelowUses extends DomainError<MaxUsesBelowUses>()("MaxUsesBelowUses") {}
