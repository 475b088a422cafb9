import { DomainError } from "./define.ts"

export class CustomerExists extends DomainError<CustomerExists>()("CustomerExists") {}
export class InvalidCsv extends DomainError<InvalidCsv>()("InvalidCsv") {}
export class TooManyRows extends DomainError<TooManyRows>()("TooManyRows") {}
export class InvalidConversation extends DomainError<InvalidConversation>()("InvalidConversation") {}
