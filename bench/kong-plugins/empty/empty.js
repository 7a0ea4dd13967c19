// The benchmark's floor: an access phase that makes no PDK call at all.
class Empty {
  async access() {}
}

module.exports = { Plugin: Empty, Name: "empty", Version: "0.0.0", Priority: 1000, Schema: [] };
