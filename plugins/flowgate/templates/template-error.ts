// A URI template problem, addressed to the person who wrote the template.

export class TemplateError {
  constructor(
    /** The template text as written. */
    readonly template: string,
    /** Zero-based offset of the offending character in `template`. */
    readonly position: number,
    /** What is wrong. */
    readonly problem: string,
    /** How to put it right. */
    readonly fix: string,
  ) {}

  /** One line naming the template, the column (1-based, as editors count) and the fix. */
  toString(): string {
    return `URI template "${this.template}", column ${this.position + 1}: ${this.problem}. Fix: ${this.fix}.`;
  }
}
