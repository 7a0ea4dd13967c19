# syntax=docker/dockerfile:1
# Flowgate's images, from one build: `kong` is Kong with the flowgate plugin server, `runner` runs the Workflows.
# Not exercised in Flowgate's own CI (no Docker engine there); kong/smoke-test.sh checks both with Docker.

FROM node:20-bookworm AS build
WORKDIR /opt/flowgate
COPY package.json package-lock.json ./
# better-sqlite3 and isolated-vm build from source here when no prebuilt binary fits.
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

# Kong 3.9+: one plugin server per plugin, its socket set explicitly, and a query command Kong runs at start.
FROM kong:3.9 AS kong
USER root
COPY --from=build /usr/local/bin/node /usr/local/bin/node
COPY --from=build --chown=kong:kong /opt/flowgate /opt/flowgate
COPY --chmod=0755 kong/flowgate-plugin-server.sh /usr/local/bin/flowgate-plugin-server
ENV KONG_PLUGINS=bundled,flowgate \
    KONG_PLUGINSERVER_NAMES=flowgate \
    KONG_PLUGINSERVER_FLOWGATE_SOCKET=/usr/local/kong/flowgate.sock \
    KONG_PLUGINSERVER_FLOWGATE_START_CMD="/usr/local/bin/flowgate-plugin-server" \
    KONG_PLUGINSERVER_FLOWGATE_QUERY_CMD="/usr/local/bin/node /opt/flowgate/node_modules/kong-pdk/bin/kong-js-pluginserver -d /opt/flowgate/dist/plugins/kong-plugin-server --dump-all-plugins"
USER kong

FROM node:20-bookworm-slim AS runner
WORKDIR /opt/flowgate
COPY --from=build /opt/flowgate /opt/flowgate
USER node
EXPOSE 8081
# isolated-vm needs Node started without its startup snapshot.
CMD ["node", "--no-node-snapshot", "dist/cli/main.js", "runner", "--host", "0.0.0.0", "--port", "8081"]
