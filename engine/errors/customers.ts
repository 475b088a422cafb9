import { DomainError } from "./define.ts"

export class CustomerExists extends DomainError<CustomerExists>()("CustomerExists") {}
export class InvalidCsv extends DomainError<InvalidCsv>()("InvalidCsv") {}
export class TooManyRows extends DomainError<TooManyRows>()("TooManyRows") {}
export class InvalidConversation extends DomainError<InvalidConversation>()("InvalidConversation") {}
export class InvalidPhone extends DomainError<InvalidPhone>()("InvalidPhone") {}
export class NoPhone extends DomainError<NoPhone>()("NoPhone") {}
export class TooManyQuestions extends DomainError<TooManyQuestions>()("TooManyQuestions") {}
