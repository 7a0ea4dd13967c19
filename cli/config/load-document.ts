// Reads a flowgate.yaml: YAML syntax, then the JSON Schema (flowgate.schema.json), every problem placed at its line.

import Ajv from "ajv";
import type { ErrorObject } from "ajv";
import { isMap, isNode, isPair, isScalar, LineCounter, parseDocument } from "yaml";
import type { Document } from "yaml";
import schema from "./flowgate.schema.json";
import type { ConfigProblem } from "./config-error";
import { formatPath } from "./config-error";
import type { RawConfig } from "./raw-config";

export type DocumentPath = readonly (string | number)[];

export interface ConfigDocument {
  readonly file: string;
  readonly raw: RawConfig;
  /** A problem at `path`, placed at the line and column of the deepest node that exists along it. */
  problem(path: DocumentPath, message: string, severity?: ConfigProblem["severity"]): ConfigProblem;
}

export type DocumentLoad = { readonly ok: true; readonly document: ConfigDocument } | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

const ajv = new Ajv({ allErrors: true, useDefaults: true, verbose: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(schema);

export function loadConfigDocument(file: string, text: string): DocumentLoad {
  const lineCounter = new LineCounter();
  const yaml = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => lineCounter.linePos(offset);
  const place = (path: DocumentPath, message: string, severity: ConfigProblem["severity"], atKey: boolean): ConfigProblem => {
    const { line, col } = at(atKey ? keyOffset(yaml, path) ?? offsetOf(yaml, path) : offsetOf(yaml, path));
    return { file, line, column: col, path: formatPath(path), message, severity };
  };
  const problem = (path: DocumentPath, message: string, severity: ConfigProblem["severity"] = "error") => place(path, message, severity, false);

  if (yaml.errors.length > 0) {
    return {
      ok: false,
      problems: yaml.errors.map((error) => {
        const { line, col } = at(error.pos[0]);
        return { file, line, column: col, path: "", message: `YAML syntax: ${error.message.split("\n")[0]}`, severity: "error" as const };
      }),
    };
  }
  const data: unknown = yaml.toJS({ maxAliasCount: 100 }) ?? {};
  if (!validate(data)) {
    return { ok: false, problems: schemaProblems(validate.errors ?? []).map(({ path, message, atKey }) => place(path, message, "error", atKey === true)) };
  }
  return { ok: true, document: { file, raw: data as unknown as RawConfig, problem } };
}

/** The offset of the deepest node along `path`; for a key the document lacks, its parent's. */
function offsetOf(yaml: Document, path: DocumentPath): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const prefix = path.slice(0, depth);
    const node: unknown = depth === 0 ? yaml.contents : yaml.getIn(prefix, true);
    if (isNode(node) && node.range) return node.range[0];
    // A key whose value is empty (`code:`) has no node of its own; place the problem at the key.
    const key = keyOffset(yaml, prefix);
    if (key !== null) return key;
  }
  return 0;
}

/** The offset of the map key that ends `path`, or null when the path does not end in one. */
function keyOffset(yaml: Document, path: DocumentPath): number | null {
  if (path.length === 0) return null;
  const parent: unknown = path.length === 1 ? yaml.contents : yaml.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return null;
  const pair = parent.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === path[path.length - 1]);
  return pair && isScalar(pair.key) && pair.key.range ? pair.key.range[0] : null;
}

interface SchemaProblem {
  readonly path: DocumentPath;
  readonly message: string;
  /** Placed at the key rather than its value: the key itself is what is wrong. */
  readonly atKey?: boolean;
}

function pathOf(instancePath: string): (string | number)[] {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
}

/** Turns Ajv's errors into one plain message per problem, dropping the branch-by-branch noise of `oneOf`. */
function schemaProblems(errors: readonly ErrorObject[]): SchemaProblem[] {
  const alternatives = errors.filter((error) => error.keyword === "oneOf");
  const insideAlternative = (error: ErrorObject) =>
    alternatives.some((alternative) => alternative !== error && error.schemaPath.startsWith(alternative.schemaPath.replace(/\/oneOf$/, "/oneOf/")));
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    if (insideAlternative(error)) continue;
    const path = pathOf(error.instancePath);
    const description = (error.parentSchema as { description?: string } | undefined)?.description;
    switch (error.keyword) {
      case "required":
        problems.push({ path, message: `missing required setting "${(error.params as { missingProperty: string }).missingProperty}"` });
        break;
      case "additionalProperties": {
        const unknown = (error.params as { additionalProperty: string }).additionalProperty;
        const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
        problems.push({ path: [...path, unknown], message: `unknown setting "${unknown}"; expected one of: ${known.join(", ")}`, atKey: true });
        break;
      }
      case "enum":
        problems.push({ path, message: `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(", ")}` });
        break;
      case "oneOf":
        problems.push({ path, message: `does not have an accepted form${description ? `: ${description}` : ""}` });
        break;
      case "pattern":
        problems.push({ path, message: `${JSON.stringify(error.data)} is not of the expected form${description ? ` (${description})` : ` (${error.message})`}` });
        break;
      case "uniqueItems":
        problems.push({ path, message: "lists the same item twice" });
        break;
      default:
        problems.push({ path, message: `${error.message ?? "is not valid"}${description ? ` (${description})` : ""}` });
    }
  }
  return problems;
}
