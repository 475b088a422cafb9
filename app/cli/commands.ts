/** The CLI's commands: their flags, their help, and the admin API request each one is. */
export interface Command {
  readonly name: string
  readonly usage: string
  readonly help: string
  readonly flags: Readonly<Record<string, { readonly required: boolean; readonly text: string }>>
  readonly request: (f: Record<string, string | undefined>) => { method: string; path: string; body?: unknown }
}

const id = (s: string | undefined) => encodeURIComponent(s ?? "")
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
const ORG = { required: true, text: "the org's id" }
const PLANS = "free, pro, growth or scale"

export const commands: ReadonlyArray<Command> = [
  {
    name: "org create",
    usage: "org create --name N --timezone ZONE --currency CUR [--owner-email EMAIL] [--plan PLAN] [--locale LANG]",
    help: "Makes an org and its first (owner) API key, printed once; the owner joins its team and is mailed a link that signs them in to the console.",
    flags: {
      name: { required: true, text: "the org's name" },
      timezone: { required: true, text: "an IANA time zone such as Europe/Amsterdam" },
      currency: { required: true, text: "an ISO 4217 code such as EUR" },
      plan: { required: false, text: PLANS },
      locale: { required: false, text: "the language of guest mail, such as en or nl" },
      "owner-email": { required: false, text: "the owner's email address (they sign in to the console with it)" }
    },
    request: (f) => ({
      method: "POST",
      path: "admin/v1/orgs",
      body: defined({
        name: f.name,
        timezone: f.timezone,
        currency: f.currency,
        plan: f.plan,
        locale: f.locale,
        owner_email: f["owner-email"]
      })
    })
  },
  {
    name: "org without-owner",
    usage: "org without-owner",
    help: "Lists orgs whose team has no owner (made before owner_email, or whose owners all left): add one with the admin API's POST /admin/v1/orgs/{id}/members.",
    flags: {},
    request: () => ({ method: "GET", path: "admin/v1/orgs_without_owner" })
  },
  {
    name: "org list",
    usage: "org list [--limit N] [--after ORG_ID]",
    help: "Lists orgs by id, 100 at a time; pass the answer's next_after as --after for the next page.",
    flags: { limit: { required: false, text: "1 to 500" }, after: { required: false, text: "an org id" } },
    request: (f) => ({
      method: "GET",
      path: `admin/v1/orgs?${new URLSearchParams(defined({ limit: f.limit, after: f.after }) as Record<string, string>)}`
    })
  },
  {
    name: "org get",
    usage: "org get --org ORG_ID",
    help: "Shows one org.",
    flags: { org: ORG },
    request: (f) => ({ method: "GET", path: `admin/v1/orgs/${id(f.org)}` })
  },
  {
    name: "org plan",
    usage: "org plan --org ORG_ID --plan PLAN",
    help: `Changes an org's plan (${PLANS}); its keys carry the new plan at once.`,
    flags: { org: ORG, plan: { required: true, text: PLANS } },
    request: (f) => ({ method: "PATCH", path: `admin/v1/orgs/${id(f.org)}`, body: { plan: f.plan } })
  },
  {
    name: "key create",
    usage: "key create --org ORG_ID [--name NAME] [--user USER_ID] [--kind secret|publishable|reseller]",
    help: "Makes an API key, printed once: an owner key, or with --user a team member's key carrying their role; --kind publishable makes a pk_live_ key for web pages (the public booking surface only); --kind reseller an rk_live_ key for the OCTO API at /api/octo only.",
    flags: {
      org: ORG,
      name: { required: false, text: "what the key is for" },
      user: { required: false, text: "a team member's user id" },
      kind: { required: false, text: "secret (default), publishable or reseller" }
    },
    request: (f) => ({
      method: "POST",
      path: `admin/v1/orgs/${id(f.org)}/api_keys`,
      body: defined({ name: f.name, user_id: f.user, kind: f.kind })
    })
  },
  {
    name: "key list",
    usage: "key list --org ORG_ID",
    help: "Lists an org's API keys (never the secrets), revoked ones too.",
    flags: { org: ORG },
    request: (f) => ({ method: "GET", path: `admin/v1/orgs/${id(f.org)}/api_keys` })
  },
  {
    name: "key revoke",
    usage: "key revoke --id KEY_ID",
    help: "Revokes an API key. When this answers, no instance of the engine accepts the key any more.",
    flags: { id: { required: true, text: "the key's id, from key create or key list" } },
    request: (f) => ({ method: "DELETE", path: `admin/v1/api_keys/${id(f.id)}` })
  }
]
