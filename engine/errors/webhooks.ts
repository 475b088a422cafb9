import { DomainError } from "./define.ts"

export class EndpointOff extends DomainError<EndpointOff>()("EndpointOff") {}
export class EndpointDeleted extends DomainError<EndpointDeleted>()("EndpointDeleted") {}
export class EndpointBusy extends DomainError<EndpointBusy>()("EndpointBusy") {}
export class InvalidEvents extends DomainError<InvalidEvents>()("InvalidEvents") {}
export class InvalidUrl extends DomainError<InvalidUrl>()("InvalidUrl") {}
export class TooManyWebhooks extends DomainError<TooManyWebhooks>()("TooManyWebhooks") {}
