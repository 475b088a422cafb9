import { ISO_4217_DECIMALS } from "./iso4217.ts"

const ISO_DECIMALS = new Map(
  ISO_4217_DECIMALS.flatMap(([decimals, codes]) => codes.split(" ").map((code) => [code, decimals] as const))
)
/** The currencies this runtime's Intl knows (ICU's CLDR data, kept current with Node). */
const KNOWN = new Set(Intl.supportedValuesOf("currency"))

/** An ISO 4217 code that Intl knows: three capitals, in use. */
export const isCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && KNOWN.has(code)

/**
 * Decimals of a currency's minor unit: ISO 4217's (BHD 3, EUR 2, JPY 0). Intl's display digits are not used where
 * ISO has the code: CLDR shows some currencies with fewer decimals than ISO defines (IQD 0 for ISO's 3, COP, HUF,
 * IDR 0 for ISO's 2), and money here is counted in ISO minor units, as payment processors count it.
 */
export const currencyDecimals = (code: string): number =>
  ISO_DECIMALS.get(code) ??
  (isCurrency(code)
    ? (new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2)
    : 2)

/** Minor units per major unit: 1 for JPY, 100 for EUR, 1000 for BHD. */
export const minorUnits = (code: string): number => 10 ** currencyDecimals(code)
