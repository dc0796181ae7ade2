// read-mcap.mjs — an independent reader of navbench's MCAP recordings.
//
//   node tests/mcap/read-mcap.mjs FILE.mcap
//
// Reads FILE with @mcap/core's McapIndexedReader (footer, summary and its CRC,
// chunk indexes, chunk CRCs), checks the Data End CRC with @foxglove/crc, reads
// the whole file again with McapStreamReader (every record in order, chunk CRCs)
// and decodes messages with @foxglove/rosmsg + @foxglove/rosmsg2-serialization
// from the ros2msg schema stored in the file.  Prints one JSON object; 64-bit
// integers (times, counts from the summary) are decimal strings.  Exits 1 with
// the reason on stderr when anything does not read.
import { open, readFile } from "node:fs/promises";

import { crc32 } from "@foxglove/crc";
import { parse } from "@foxglove/rosmsg";
import { MessageReader, MessageWriter } from "@foxglove/rosmsg2-serialization";
import { McapIndexedReader, McapStreamReader } from "@mcap/core";

function plain(value) {
  return JSON.parse(
    JSON.stringify(value, (_key, v) => {
      if (typeof v === "bigint") return v.toString();
      if (ArrayBuffer.isView(v)) return Array.from(v);
      if (v instanceof Map) return Object.fromEntries(v);
      return v;
    }),
  );
}

// rosmsg2-serialization 2.x (the line that runs on Debian 12's node 18) gives
// builtin_interfaces/Time as {sec, nsec}; ROS 2 names the field nanosec.
function rosTime(value) {
  if (Array.isArray(value)) return value.map(rosTime);
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 2 && "sec" in value && "nsec" in value)
    return { sec: value.sec, nanosec: value.nsec };
  return Object.fromEntries(keys.map((k) => [k, rosTime(value[k])]));
}

async function main() {
  const path = process.argv[2];
  if (!path) throw new Error("usage: read-mcap.mjs FILE.mcap");

  const handle = await open(path, "r");
  const size = (await handle.stat()).size;
  const readable = {
    size: async () => BigInt(size),
    read: async (offset, length) => {
      const n = Number(length);
      const buf = new Uint8Array(n);
      const { bytesRead } = await handle.read(buf, 0, n, Number(offset));
      if (bytesRead !== n) throw new Error(`short read at ${offset}`);
      return buf;
    },
  };

  let result;
  try {
    const reader = await McapIndexedReader.Initialize({ readable });
    const decoders = new Map();
    const encoders = new Map();
    const channels = new Map();
    for (const [id, channel] of reader.channelsById) {
      const schema = reader.schemasById.get(channel.schemaId);
      const text = new TextDecoder().decode(schema.data);
      const definitions = parse(text, { ros2: true });
      decoders.set(id, new MessageReader(definitions));
      encoders.set(id, new MessageWriter(definitions));
      channels.set(id, {
        id,
        topic: channel.topic,
        schema_name: schema.name,
        schema_encoding: schema.encoding,
        message_encoding: channel.messageEncoding,
        metadata: Object.fromEntries(channel.metadata),
        message_count: 0,
        first_log_time: null,
        last_log_time: null,
        sequences_in_order: true,
        reencoded_differs: 0,
        first_message: null,
        last_message: null,
        last_sequence: 0,
      });
    }

    let total = 0;
    for await (const message of reader.readMessages()) {
      const c = channels.get(message.channelId);
      const decoder = decoders.get(message.channelId);
      const raw = decoder.readMessage(message.data);
      const decoded = rosTime(raw);
      // The independent encoder must give back the very bytes: no trailing
      // bytes, the same alignment and padding.
      const again = encoders.get(message.channelId).writeMessage(raw);
      if (Buffer.compare(Buffer.from(again), Buffer.from(message.data)) !== 0) c.reencoded_differs++;
      if (c.message_count === 0) {
        c.first_log_time = message.logTime;
        c.first_message = decoded;
      }
      if (message.sequence !== c.last_sequence + 1) c.sequences_in_order = false;
      c.last_sequence = message.sequence;
      c.last_log_time = message.logTime;
      c.last_message = decoded;
      c.message_count++;
      total++;
    }

    // The Data End CRC covers every byte before the Data End record, which
    // ends where the summary starts (13 bytes: opcode, length, crc).
    const bytes = await readFile(path);
    const dataEnd = Number(reader.footer.summaryStart) - 13;
    const dataCrc = crc32(bytes.subarray(0, dataEnd));

    // A second, linear pass: every record in file order, chunk CRCs checked.
    const stream = new McapStreamReader({ validateCrcs: true, includeChunks: true });
    stream.append(bytes);
    const recordCounts = {};
    let streamMessages = 0;
    for (let record; (record = stream.nextRecord()) !== undefined; ) {
      recordCounts[record.type] = (recordCounts[record.type] ?? 0) + 1;
      if (record.type === "Message") streamMessages++;
    }

    result = {
      profile: reader.header.profile,
      library: reader.header.library,
      statistics: reader.statistics,
      chunk_indexes: reader.chunkIndexes.length,
      data_section_crc: reader.dataSectionCrc ?? 0,
      data_section_crc_computed: dataCrc,
      stream_done: stream.done(),
      stream_messages: streamMessages,
      stream_records: recordCounts,
      message_count: total,
      channels: [...channels.values()].map(({ last_sequence, ...c }) => c),
    };
  } finally {
    await handle.close();
  }
  process.stdout.write(JSON.stringify(plain(result)) + "\n");
}

main().catch((err) => {
  process.stderr.write(`read-mcap.mjs: ${err?.stack ?? err}\n`);
  process.exit(1);
});
