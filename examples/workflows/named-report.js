// GET /reports/revenue/?name={reportName}: the query parameter "name" arrives as the input reportName.
export default function namedReport({ reportName }) {
  const rows = reportName === "Q1" ? [{ month: "Jan", total: 150000 }, { month: "Feb", total: 161000 }, { month: "Mar", total: 172500 }] : [];
  return { reportName: reportName ?? null, rows };
}
