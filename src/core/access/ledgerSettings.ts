import { randomBytes } from 'node:crypto';
import type { LedgerEngine } from '../ports/store';
import type { Clock } from '../time';
import { currentCaller } from '../caller';
import { appendEvent } from '../events/eventLog';
import type { EventKind } from '../events/eventKinds';

/**
 * Settings of one ledger, in the ledger (so every server on a team database, every replica, the
 * CLI and the editor read the same): named switches, and keys made once and shared.
 */
export class LedgerSettings {
  constructor(
    private readonly engine: LedgerEngine,
    private readonly clock: Clock,
  ) {}

  async get(name: string): Promise<string | null> {
    const row = await this.engine.read((db) =>
      db.get<{ value: string }>('SELECT value FROM ledger_settings WHERE name = ?', [name]),
    );
    return row?.value ?? null;
  }

  async isOn(name: string): Promise<boolean> {
    return (await this.get(name)) === 'on';
  }

  /** Sets a switch (`on`/`off`), recorded as an event with who set it. */
  async set(name: string, value: string): Promise<void> {
    const ts = this.clock.now().toISOString();
    const by = currentCaller().name;
    await this.engine.write(async (tx) => {
      await tx.run(
        `INSERT INTO ledger_settings (name, value, updated_at, updated_by) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
        [name, value, ts, by],
      );
      await appendEvent(tx, { ts, kind: 'setting.changed', entity: 'setting', entityId: name, payload: { value } });
    });
  }

  /**
   * Records a fact once, under a name that says what it is (the first writer wins; a second
   * `remember` of the same name changes nothing), with an event so the ledger says who and when.
   * Answers whether this call recorded it.
   */
  async remember(
    name: string,
    value: string,
    event: { kind: EventKind; payload: Record<string, unknown> },
  ): Promise<boolean> {
    const ts = this.clock.now().toISOString();
    const by = currentCaller().name;
    return this.engine.write(async (tx) => {
      const had = await tx.get<{ name: string }>('SELECT name FROM ledger_settings WHERE name = ?', [name]);
      if (had) return false;
      await tx.run('INSERT INTO ledger_settings (name, value, updated_at, updated_by) VALUES (?, ?, ?, ?)', [
        name,
        value,
        ts,
        by,
      ]);
      await appendEvent(tx, { ts, kind: event.kind, entity: 'setting', entityId: name, payload: event.payload });
      return true;
    });
  }

  /**
   * A random key of this ledger, made the first time any process asks (the first writer wins, so
   * every replica gets the same one). Never shown; not a credential to anything but this ledger's
   * own round trips.
   */
  async key(name: string): Promise<string> {
    const existing = await this.get(name);
    if (existing !== null) return existing;
    const ts = this.clock.now().toISOString();
    await this.engine.write((tx) =>
      tx.run(
        'INSERT INTO ledger_settings (name, value, updated_at, updated_by) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING',
        [name, randomBytes(32).toString('base64url'), ts, 'agent-ledger'],
      ),
    );
    return (await this.get(name))!;
  }
}
