import { describe, expect, it } from "vitest";
import { checkTemplateAgainstVariableBar, specialProperties } from "../../plugins/flowgate/variable-bar";
import { parseUriTemplate } from "../../plugins/flowgate/templates/uri-template";

function template(text: string) {
  const result = parseUriTemplate(text);
  if (!result.ok) throw new Error(result.error.toString());
  return result.template;
}

describe("template variables and the Variable Bar", () => {
  const revenue = template("/reports/revenue/{year}?name={reportName}");

  it("accepts variables that are declared inputs", () => {
    expect(checkTemplateAgainstVariableBar(revenue, { inputs: ["year", "reportName"], outputs: [] })).toEqual([]);
  });

  it("names every undeclared variable, suggesting an input that differs only in case", () => {
    const errors = checkTemplateAgainstVariableBar(revenue, { inputs: ["Year"], outputs: [] }).map(String);
    expect(errors).toEqual([
      'URI template "/reports/revenue/{year}?name={reportName}", column 18: variable "year" is not an input of the Workflow\'s Variable Bar. Fix: rename it "Year" to match the input (names are exact).',
      'URI template "/reports/revenue/{year}?name={reportName}", column 30: variable "reportName" is not an input of the Workflow\'s Variable Bar. Fix: create the Variable Bar input "reportName" first, or rename the variable to an existing input.',
    ]);
  });

  it("refuses binding a special property, under the deployment's prefix", () => {
    const body = template("/upload/{FgRequestBody}");
    expect(checkTemplateAgainstVariableBar(body, { inputs: ["FgRequestBody"], outputs: [] }).map(String)).toEqual([
      'URI template "/upload/{FgRequestBody}", column 9: "FgRequestBody" is a special property that the service sets itself. Fix: bind the path or query value to an input of your own.',
    ]);
    expect(checkTemplateAgainstVariableBar(body, { inputs: ["FgRequestBody"], outputs: [] }, specialProperties("Svc"))).toEqual([]);
  });

  it("names the special properties under a prefix, and refuses a prefix that cannot start a name", () => {
    expect(specialProperties("Svc").inputs.RequestBody).toBe("SvcRequestBody");
    expect(specialProperties().outputs.ResponseCode).toBe("FgResponseCode");
    expect(() => specialProperties("1x")).toThrow('Variable Bar prefix "1x" must start with a letter');
  });
});
