// One of the processes racing on the record of what the ledger wrote (writtenRecord.test.ts):
// after "go" on stdin, records `<label>-<i>.yaml` and the shared `both.yaml` `count` times, and
// reads back the other racer's newest entries each time; prints every entry it found unreadable.
import * as path from 'node:path';
import { readWrittenRecord, recordWritten } from '../../../../src/core/agents/writtenRecord';

const [workspace, label, other, countText] = process.argv.slice(2);
const count = Number(countText);
const folder = path.join(workspace, '.agent-ledger', 'agents');

process.stdin.once('data', () => {
  for (let i = 0; i < count; i++) {
    recordWritten(workspace, folder, `${label}-${i}.yaml`, `${label} ${i}\n`);
    recordWritten(workspace, folder, 'both.yaml', `${label} ${i}\n`);
    const seen = readWrittenRecord(workspace, folder, [`${other}-${i}.yaml`, `${other}-${i - 1}.yaml`, 'both.yaml']);
    if (seen.kind !== 'present') console.log(`record ${seen.kind}`);
    else for (const p of seen.problems.values()) console.log(`unreadable ${p.file}`);
  }
  console.log('done');
  process.exit(0);
});
console.log('ready');
