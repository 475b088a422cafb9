import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import {
  Customer,
  CustomerCreate,
  CustomerImport,
  CustomerPage,
  CustomersQuery,
  CustomerUpdate,
  ImportResult
} from "../../../engine/schema/customer.ts"
import { Authentication } from "../security.ts"
import { IdempotencyHeaders, IdParam } from "./common.ts"

export const CustomersGroup = HttpApiGroup.make("customers")
  .annotate(
    OpenApi.Description,
    "The org's guests, found or added by email as they book; importable from CSV and erasable on request."
  )
  .add(
    HttpApiEndpoint.get("list", "/customers")
      .setUrlParams(CustomersQuery)
      .addSuccess(CustomerPage)
      .annotate(
        OpenApi.Summary,
        "Find customers: q matches any part of a name, email or phone; oldest first, paged with after"
      )
      .annotate(
        OpenApi.Description,
        "Customers oldest first; q matches any part of a name, email or phone, in any case. Page with after (the last id of a page). Erased customers are listed without their personal data. Emits nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/customers")
      .setPayload(CustomerCreate)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(Customer, { status: 201 })
      .annotate(OpenApi.Summary, "Add a customer (email required, unique in the org)")
      .annotate(
        OpenApi.Description,
        "Adds a customer. The email is required and unique in the org (409 customer_exists, in any case). Emits customer.updated."
      )
  )
  .add(
    HttpApiEndpoint.post("import", "/customers/import")
      .setPayload(CustomerImport)
      .setHeaders(IdempotencyHeaders)
      .addSuccess(ImportResult)
      .annotate(
        OpenApi.Summary,
        "Import customers from CSV (header with email, name, phone); existing ones only gain missing fields"
      )
      .annotate(
        OpenApi.Description,
        "Imports customers from CSV text with a header naming email, name and phone, up to 10,000 rows. A new email adds a customer; an existing one only gains the name or phone it was missing; a row without a valid email is skipped. Emits customers.imported once per 500 rows (created, updated and skipped counts; never the rows)."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/customers/${IdParam}`
      .addSuccess(Customer)
      .annotate(OpenApi.Summary, "Get a customer (erased ones too)")
      .annotate(OpenApi.Description, "One customer, erased ones too (their personal data null). Emits nothing.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/customers/${IdParam}`
      .setPayload(CustomerUpdate)
      .addSuccess(Customer)
      .annotate(OpenApi.Summary, "Update a customer's name, email or phone")
      .annotate(
        OpenApi.Description,
        "Changes a customer's name, email or phone; the email stays unique in the org. Emits customer.updated."
      )
  )
  .add(
    HttpApiEndpoint.del("erase")`/customers/${IdParam}`
      .addSuccess(Customer)
      .annotate(OpenApi.Summary, "Erase a customer's personal data; the record and its bookings stay, anonymised")
      .annotate(
        OpenApi.Description,
        "Erases a customer's personal data on request: name, email and phone become null; the record and its bookings stay, anonymised. Emits customer.deleted."
      )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
