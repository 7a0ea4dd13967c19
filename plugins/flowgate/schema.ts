// The Kong plugin's identity and configuration (Kong's `schema.lua`): what ops teams set per route in Kong's
// declarative config. Where Flowgate's own configuration lives (the store) and the dispatch secret come from the
// plugin server's environment, so no secret sits in Kong's configuration.

export const NAME = "flowgate";
export const VERSION = "0.1.0";
// After Kong's `cors` plugin (2000), so preflights are answered before any Workflow is looked for.
export const PRIORITY = 1000;

/** Kong schema fields; the plugin server wraps them as the `config` record. */
export const SCHEMA = [
  {
    poll_interval_ms: {
      type: "integer",
      default: 1000,
      between: [100, 60000],
      description: "How often the plugin server looks for configuration changes in the store.",
    },
  },
];

export interface FlowgatePluginConfig {
  readonly poll_interval_ms?: number;
}
