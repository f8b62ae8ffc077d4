import { z } from 'zod';

/**
 * An operator's definition of net gaming revenue (docs/analytics.md "NGR"): NGR = GGR − bonus cost − gaming taxes −
 * other deductions. There is no one industry definition (`../shared/research/igaming-figures.md`), so each operator
 * declares its own; every change is a new version, and every NGR figure names the version it was computed with.
 */
const rate = z.number().min(0).max(1);

export const NgrDefinitionSchema = z
  .object({
    /** Gaming tax per player jurisdiction (the player's `jurisdiction`, compared without case), as a share of GGR − bonus cost. */
    taxes: z
      .array(z.object({ jurisdiction: z.string().trim().min(1).max(20), rate }).strict())
      .max(100)
      .default([])
      .refine((taxes) => new Set(taxes.map((tax) => tax.jurisdiction.toUpperCase())).size === taxes.length, 'each jurisdiction at most once'),
    /** The rate for players whose jurisdiction is absent or not listed. */
    defaultTaxRate: rate.default(0),
    /** Other deductions (processing fees, platform fees), each a share of GGR. */
    otherDeductions: z
      .array(z.object({ name: z.string().trim().min(1).max(100), rate }).strict())
      .max(20)
      .default([]),
  })
  .strict();
export type NgrDefinition = z.output<typeof NgrDefinitionSchema>;
export type NgrDefinitionInput = z.input<typeof NgrDefinitionSchema>;

/** No version saved: no taxes, no other deductions (NGR = GGR − bonus cost). */
export const NO_DEDUCTIONS: NgrDefinition = { taxes: [], defaultTaxRate: 0, otherDeductions: [] };

/** GGR and bonus cost of the players of one jurisdiction: `''` for absent or unlisted ones. */
export interface NgrPart {
  jurisdiction: string;
  ggr: number;
  bonusCost: number;
}

export interface NgrFigures {
  ggr: number;
  bonus_cost: number;
  taxes: number;
  other_deductions: number;
  ngr: number;
  /** Per listed jurisdiction with players in the period, then `''` for the rest: the base and the tax on it. */
  taxes_by_jurisdiction: Array<{ jurisdiction: string; rate: number; taxable: number; tax: number }>;
  /** Each other deduction by name. */
  deductions: Array<{ name: string; rate: number; amount: number }>;
}

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * NGR from its parts. A jurisdiction's tax is its rate times its GGR − bonus cost, never below 0 (a losing period
 * owes no tax here; carry-over rules differ by market and are not modelled); other deductions are rates of the
 * period's GGR, never below 0. Amounts are minor units, rounded to 2 decimals.
 */
export function ngrOf(parts: NgrPart[], definition: NgrDefinition): NgrFigures {
  const rates = new Map(definition.taxes.map((tax) => [tax.jurisdiction.toUpperCase(), tax.rate]));
  const ggr = parts.reduce((sum, part) => sum + part.ggr, 0);
  const bonusCost = parts.reduce((sum, part) => sum + part.bonusCost, 0);
  const byJurisdiction = parts
    .map((part) => {
      const taxRate = rates.get(part.jurisdiction) ?? definition.defaultTaxRate;
      const taxable = Math.max(0, part.ggr - part.bonusCost);
      return { jurisdiction: part.jurisdiction, rate: taxRate, taxable, tax: cents(taxRate * taxable) };
    })
    .sort((a, b) => (a.jurisdiction === '' ? 1 : b.jurisdiction === '' ? -1 : a.jurisdiction.localeCompare(b.jurisdiction)));
  const taxes = cents(byJurisdiction.reduce((sum, entry) => sum + entry.tax, 0));
  const deductions = definition.otherDeductions.map((deduction) => ({
    name: deduction.name,
    rate: deduction.rate,
    amount: cents(deduction.rate * Math.max(0, ggr)),
  }));
  const other = cents(deductions.reduce((sum, entry) => sum + entry.amount, 0));
  return {
    ggr,
    bonus_cost: bonusCost,
    taxes,
    other_deductions: other,
    ngr: cents(ggr - bonusCost - taxes - other),
    taxes_by_jurisdiction: byJurisdiction,
    deductions,
  };
}
