import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Customer, CustomerCreate, CustomerImport, CustomerPage, CustomersQuery, CustomerUpdate, ImportResult } from "../../../engine/schema/customer.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const CustomersGroup = HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.get("list", "/customers")
      .setUrlParams(CustomersQuery)
      .addSuccess(CustomerPage)
      .annotate(OpenApi.Summary, "Find customers: q matches any part of a name, email or phone; oldest first, paged with after")
  )
  .add(
    HttpApiEndpoint.post("create", "/customers")
      .setPayload(CustomerCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Customer, { status: 201 })
      .annotate(OpenApi.Summary, "Add a customer (email required, unique in the org)")
  )
  .add(
    HttpApiEndpoint.post("import", "/customers/import")
      .setPayload(CustomerImport)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ImportResult)
      .annotate(OpenApi.Summary, "Import customers from CSV (header with email, name, phone); existing ones only gain missing fields")
  )
  .add(HttpApiEndpoint.get("get")`/customers/${IdParam}`.addSuccess(Customer).annotate(OpenApi.Summary, "Get a customer (erased ones too)"))
  .add(
    HttpApiEndpoint.patch("update")`/customers/${IdParam}`
      .setPayload(CustomerUpdate)
      .addSuccess(Customer)
      .annotate(OpenApi.Summary, "Update a customer's name, email or phone")
  )
  .add(
    HttpApiEndpoint.del("erase")`/customers/${IdParam}`
      .addSuccess(Customer)
      .annotate(OpenApi.Summary, "Erase a customer's personal data; the record and its bookings stay, anonymised")
  )
  .middleware(Authentication)
  .prefix("/api/v1")
