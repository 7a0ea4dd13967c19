// The module Kong's JavaScript plugin server loads (kong-js-pluginserver -d <this folder>): this folder holds this
// file alone, because the server loads every module it finds here and Kong 3.9+ registers only the first plugin.

import { FlowgateHandler } from "../flowgate/handler";
import { NAME, PRIORITY, SCHEMA, VERSION } from "../flowgate/schema";

export const Plugin = FlowgateHandler;
export const Name = NAME;
export const Version = VERSION;
export const Priority = PRIORITY;
export const Schema = SCHEMA;
