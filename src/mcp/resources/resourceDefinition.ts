import type { LedgerEvent } from '../../core/events/eventLog';
import type { Services } from '../../app/services';
import type { Disposable } from '../../core/emitter';
import { validationError } from '../../core/errors';

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
}

/** A family of resources addressed by a URI template such as `task://{id}`. */
export interface ResourceTemplateDefinition {
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: string;
  /** The id in `uri` when it belongs to this template. */
  match(uri: string): string | undefined;
  /** The most relevant resources of this template (bounded); resources over the asynchronous store port answer a promise. */
  list(services: Services): ResourceEntry[] | Promise<ResourceEntry[]>;
  /** The content; throws (or rejects with) a LedgerError (not found) for an unknown id. */
  read(services: Services, id: string): string | Promise<string>;
  /** URIs of this template whose content an event changed. */
  affected(event: LedgerEvent): string[];
  /** True when the event adds or removes a resource (resources/list_changed). */
  changesList(event: LedgerEvent): boolean;
}

/** Builds `match` for `<scheme>://{id}` templates. */
export function schemeMatcher(scheme: string): (uri: string) => string | undefined {
  const prefix = `${scheme}://`;
  return (uri) => {
    if (!uri.startsWith(prefix) || uri.length === prefix.length) return undefined;
    try {
      return decodeURIComponent(uri.slice(prefix.length));
    } catch {
      throw validationError(`${uri} has a malformed %-escape`);
    }
  };
}

/** A resource with one fixed URI, such as `project://memory`. */
export interface FixedResourceDefinition {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** The content; throws a LedgerError when it cannot be produced. */
  read(services: Services): string | Promise<string>;
  /** Whether an event of the store changed the content. */
  affected(event: LedgerEvent): boolean;
  /**
   * Calls `onChange` when the content may have changed without a store event (files edited by
   * hand); started only while a client is subscribed.
   */
  watch?(services: Services, onChange: () => void): Disposable;
}
