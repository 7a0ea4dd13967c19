// DNS messages for RFC 2136 dynamic updates, built with dns-packet and signed with TSIG (RFC 8945), and the UDP
// exchange that carries them.

import { createHmac, randomInt } from "node:crypto";
import { createSocket } from "node:dgram";
import * as packet from "dns-packet";

export interface TsigKey {
  readonly name: string;
  readonly algorithm: "hmac-sha256" | "hmac-sha512";
  readonly secret: Buffer;
}

export interface DnsServer {
  readonly host: string;
  readonly port: number;
}

const UPDATE = 5 << 11;
const CLASS_ANY = 255;
const FUDGE_SECONDS = 300;

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function u48(value: number): Buffer {
  const buffer = Buffer.alloc(6);
  buffer.writeUIntBE(value, 0, 6);
  return buffer;
}

// dns-packet's name codec and decoded rcode are not in its type definitions.
const names = (packet as unknown as { name: { encode(name: string): Buffer } }).name;
export type DnsReply = packet.DecodedPacket & { readonly rcode: string };

function wireName(name: string): Buffer {
  return names.encode(name.toLowerCase());
}

/**
 * Appends a TSIG record: an HMAC over the message and the TSIG variables (RFC 8945, 4.3.3), so the server knows the
 * update comes from the holder of the key.
 */
export function signWithTsig(message: packet.Packet, key: TsigKey, now: number = Date.now()): Buffer {
  const unsigned = packet.encode(message);
  const timeSigned = Math.floor(now / 1000);
  const algorithm = wireName(key.algorithm);
  const variables = Buffer.concat([wireName(key.name), u16(CLASS_ANY), Buffer.alloc(4), algorithm, u48(timeSigned), u16(FUDGE_SECONDS), u16(0), u16(0)]);
  const mac = createHmac(key.algorithm.slice("hmac-".length), key.secret).update(unsigned).update(variables).digest();
  const rdata = Buffer.concat([algorithm, u48(timeSigned), u16(FUDGE_SECONDS), u16(mac.length), mac, u16(message.id ?? 0), u16(0), u16(0)]);
  const tsig = { type: "TSIG", name: key.name.toLowerCase(), class: "ANY", ttl: 0, data: rdata } as unknown as packet.Answer;
  return packet.encode({ ...message, additionals: [...(message.additionals ?? []), tsig] });
}

export type RecordTarget = { readonly type: "A" | "AAAA" | "CNAME"; readonly value: string };

// The record types a Site's name is given; other records an operator keeps at the name (TXT, MX) are left alone.
// Written as dns-packet's numbered types so the deletion carries empty data (RFC 2136, 2.5.2).
const SITE_RECORD_TYPES = { A: 1, AAAA: 28, CNAME: 5 } as const;

/** Deletes the address and alias records at each name of `clear`, then adds `host`'s record when given (RFC 2136, 2.5). */
export function updateMessage(zone: string, clear: readonly string[], add: { host: string; target: RecordTarget; ttl: number } | null): packet.Packet {
  const updates = clear.flatMap((name) =>
    Object.values(SITE_RECORD_TYPES).map((type) => ({ type: `UNKNOWN_${type}`, class: "ANY", name, ttl: 0, data: Buffer.alloc(0) }) as unknown as packet.Answer),
  );
  if (add) updates.push({ type: add.target.type, class: "IN", name: add.host, ttl: add.ttl, data: add.target.value } as packet.Answer);
  return { type: "query", id: randomInt(0, 65536), flags: UPDATE, questions: [{ type: "SOA", class: "IN", name: zone }], answers: [], authorities: updates, additionals: [] };
}

export function queryMessage(host: string, type: RecordTarget["type"]): Buffer {
  return packet.encode({ type: "query", id: randomInt(0, 65536), flags: 0, questions: [{ type, name: host }] });
}

/** Sends one message over UDP and answers the decoded reply, or throws on silence. */
export function exchange(server: DnsServer, message: Buffer, timeoutMs: number): Promise<DnsReply> {
  const id = message.readUInt16BE(0);
  return new Promise((resolve, reject) => {
    const socket = createSocket(server.host.includes(":") ? "udp6" : "udp4");
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no answer from ${server.host}:${server.port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("message", (reply, sender) => {
      // Only the server's own answer counts: a packet from anywhere else, or a query, is ignored.
      if (sender.port !== server.port || sender.address !== server.host) return;
      let decoded: DnsReply;
      try {
        decoded = packet.decode(reply) as DnsReply;
      } catch {
        return;
      }
      if (decoded.id !== id || decoded.type !== "response") return;
      clearTimeout(timer);
      socket.close();
      resolve(decoded);
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    });
    socket.send(message, server.port, server.host);
  });
}
