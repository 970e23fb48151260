import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect } from '../helpers/mcpClient';
import { tempRepo } from '../helpers/tmp';
import { mountTinyDisk, tinyDiskSkip } from '../helpers/tinyDisk';
import type { TinyDisk } from '../helpers/tinyDisk';

/**
 * A full disk as an agent sees it, through the real SDK client: the embedded store on a small tmpfs
 * (`--db`). A refused write is a coded tool error (-32010 StoreError, reason diskFull), never
 * -32603 with the raw ENOSPC text; once there is room again the same calls succeed and every
 * acknowledged write is there. (On PostgreSQL the disk is the server's: the unit suite
 * test/unit/store/engines/diskFull.test.ts fills a tablespace of a real server.)
 */
const disks: TinyDisk[] = [];
after(() => disks.forEach((d) => d.unmount()));

test(
  'a full disk answers bb_set with a coded diskFull tool error, and the ledger goes on once there is room',
  { skip: tinyDiskSkip },
  async () => {
    const disk = mountTinyDisk(8 * 1024 * 1024);
    disks.push(disk);
    disk.reserve(3 * 1024 * 1024);
    const c = await connect(tempRepo(), ['--enable-orchestrator', '--db', path.join(disk.dir, 'ledger.db')]);
    try {
      const acknowledged: string[] = [];
      let refusals = 0;
      for (let n = 0; refusals < 5 && n < 2000; n++) {
        const key = `fill:${n}`;
        const result = await c.client.callTool({
          name: 'bb_set',
          arguments: { key, value: randomBytes(12_000).toString('hex') },
        });
        if (!result.isError) {
          acknowledged.push(key);
          continue;
        }
        refusals++;
        const { error } = JSON.parse((result.content as Array<{ text: string }>).at(-1)!.text) as {
          error: { code: number; reason: string; message: string; data?: { reason?: string } };
        };
        assert.equal(error.code, -32010, error.message);
        assert.equal(error.reason, 'StoreError');
        assert.equal(error.data?.reason, 'diskFull');
        assert.match(error.message, /^no space left on the disk holding /);
      }
      assert.equal(refusals, 5, 'the disk filled up');
      assert.ok(acknowledged.length > 50, `only ${acknowledged.length} writes fitted`);
      disk.free();
      await c.call('bb_set', { key: 'after:1', value: 'room again' });
      const keys = new Set<string>();
      for (let i = 0; i < acknowledged.length; i += 64) {
        const batch = acknowledged.slice(i, i + 64);
        const found = await c.call<{ entries: Array<{ key: string }> }>('bb_query', { keys: batch, limit: 100 });
        for (const e of found.entries) keys.add(e.key);
      }
      assert.equal(keys.size, acknowledged.length, 'every acknowledged entry is there');
    } finally {
      await c.close();
    }
  },
);
