import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { LazyServices } from './lazyServices';
import type { Disposable } from '../core/emitter';
import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resources/resourceDefinition';
import { toResourceError, unknownResource } from './resources/resourceErrors';
import type { ResourceSink } from './resourceNotifier';
import { ResourceNotifier } from './resourceNotifier';

/** The resources a server serves, and how one is read (shared by every SDK instance of a process). */
export interface ResourceCatalog {
  templates: ResourceTemplateDefinition[];
  fixed: FixedResourceDefinition[];
  read(uri: string): Promise<{ mimeType: string; text: string }>;
}

/**
 * The resources of a server: reading refuses what does not exist with MCP's resource codes
 * (resourceErrors.ts), so subscribing to `workflow://999999` is refused instead of waiting forever.
 */
export function resourceCatalog(
  lazy: LazyServices,
  templates: ResourceTemplateDefinition[],
  fixed: FixedResourceDefinition[],
): ResourceCatalog {
  const served = [...templates.map((t) => t.uriTemplate), ...fixed.map((r) => r.uri)];
  const read = async (uri: string): Promise<{ mimeType: string; text: string }> => {
    const services = await lazy.get();
    const fixedResource = fixed.find((r) => r.uri === uri);
    if (fixedResource) {
      try {
        return { mimeType: fixedResource.mimeType, text: await fixedResource.read(services) };
      } catch (err) {
        throw toResourceError(err, uri);
      }
    }
    for (const t of templates) {
      let id: string | undefined;
      try {
        id = t.match(uri);
      } catch (err) {
        throw toResourceError(err, uri); // a malformed %-escape
      }
      if (id === undefined) continue;
      try {
        return { mimeType: t.mimeType, text: await t.read(services, id) };
      } catch (err) {
        throw toResourceError(err, uri);
      }
    }
    throw unknownResource(uri, served);
  };
  return { templates, fixed, read };
}

/** Resources served beside the ledger's (the MCP Apps' pages), each request deciding whether its client gets them. */
export interface ExtraResources {
  list(ctx: ServerContext): {
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType: string;
    _meta?: Record<string, unknown>;
  }[];
  /** The resource, undefined when the URI is not one of these (a refusal throws). */
  read(
    uri: string,
    ctx: ServerContext,
  ): { mimeType: string; text: string; _meta?: Record<string, unknown> } | undefined;
}

/**
 * resources/list, templates and read on one SDK instance; with `subscriptions`, also
 * resources/subscribe and unsubscribe (2025-11-25) and the changes this instance sends while it
 * serves a connection (both revisions: on 2026-07-28 the SDK routes them to the client's
 * `subscriptions/listen` stream, which keeps its own filter, so every changed URI is sent).
 */
export function registerResourceHandlers(
  server: Server,
  lazy: LazyServices,
  catalog: ResourceCatalog,
  subscriptions: { everyUri: boolean } | undefined,
  extra?: ExtraResources,
): Disposable {
  const { templates, fixed, read } = catalog;
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: templates.map((t) => ({
      name: t.name,
      uriTemplate: t.uriTemplate,
      title: t.title,
      description: t.description,
      mimeType: t.mimeType,
    })),
  }));
  server.setRequestHandler('resources/list', async (_request, ctx) => {
    const services = await lazy.get();
    return {
      resources: [
        ...(extra?.list(ctx) ?? []),
        ...fixed.map((r) => ({
          uri: r.uri,
          name: r.name,
          title: r.title,
          description: r.description,
          mimeType: r.mimeType,
        })),
        ...(await Promise.all(templates.map((t) => t.list(services)))).flat(),
      ],
    };
  });
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const own = extra?.read(uri, ctx);
    if (own) return { contents: [{ uri, ...own }] };
    return { contents: [{ uri, ...(await read(uri)) }] };
  });
  if (!subscriptions) return { dispose: () => undefined };

  // Changes are followed from the moment the services open (a subscription opens them: it reads first).
  const sink: ResourceSink = {
    updated: (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined),
    listChanged: () => void server.sendResourceListChanged().catch(() => undefined),
  };
  let notifier: ResourceNotifier | undefined;
  let disposed = false;
  lazy.whenOpen((services) => {
    if (!disposed) notifier = new ResourceNotifier(sink, services, templates, fixed, subscriptions.everyUri);
  });
  server.setRequestHandler('resources/subscribe', async (request) => {
    await read(request.params.uri);
    notifier?.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    notifier?.unsubscribe(request.params.uri);
    return {};
  });
  return {
    dispose: () => {
      disposed = true;
      notifier?.dispose();
    },
  };
}

/** Follows the ledger's resource changes into a sink that is not an instance (the HTTP listen streams). */
export function followResources(lazy: LazyServices, catalog: ResourceCatalog, sink: ResourceSink): Disposable {
  let notifier: ResourceNotifier | undefined;
  let disposed = false;
  lazy.whenOpen((services) => {
    if (!disposed) notifier = new ResourceNotifier(sink, services, catalog.templates, catalog.fixed, true);
  });
  return {
    dispose: () => {
      disposed = true;
      notifier?.dispose();
    },
  };
}
