// A problem in a flowgate.yaml, addressed to its author: file, line and column, the setting, and what is expected.

export interface ConfigProblem {
  readonly file: string;
  /** 1-based, as editors count. */
  readonly line: number;
  readonly column: number;
  /** Where in the document, such as `sites[0].workflows[2].template`. */
  readonly path: string;
  readonly message: string;
  readonly severity: "error" | "warning";
}

export function formatProblem(problem: ConfigProblem): string {
  const where = problem.path ? `${problem.path}: ` : "";
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.severity}: ${where}${problem.message}`;
}

/** A document path as people read it: `sites[0].workflows[2].template`. */
export function formatPath(path: readonly (string | number)[]): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? key : `.${key}`)).join("");
}
