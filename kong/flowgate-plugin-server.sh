#!/bin/sh
# Kong's _start_cmd for the flowgate plugin server. Nginx passes its workers no environment of its own, so the
# plugin's settings (FLOWGATE_DATABASE_URL, FLOWGATE_DISPATCH_SECRET) come from a file mounted for it, never from
# the command line, where any user could read them.
set -eu
if [ -r /etc/flowgate/plugin-server.env ]; then
  set -a
  . /etc/flowgate/plugin-server.env
  set +a
fi
exec /usr/local/bin/node /opt/flowgate/node_modules/kong-pdk/bin/kong-js-pluginserver \
  -p /usr/local/kong --sock-name flowgate.sock -d /opt/flowgate/dist/plugins/kong-plugin-server
