import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { LazyServices } from './lazyServices';
import type { Disposable } from '../core/emitter';
import type { FixedResourceDefinition, ResourceTemplateDefinition } from './resources/resourceDefinition';
import { toResourceError, unknownResource } from './resources/resourceErrors';
import { ResourceNotifier } from './resourceNotifier';

/**
 * resources/list, templates, read, subscribe and unsubscribe. Reading and subscribing refuse
 * what does not exist with MCP's resource codes (resourceErrors.ts); subscribing reads the
 * resource first, so `workflow://999999` is refused instead of waiting forever.
 */
/** Resources served beside the ledger's (the MCP Apps' pages), each call deciding whether this client gets them. */
export interface ExtraResources {
  list(): { uri: string; name: string; title?: string; description?: string; mimeType: string; _meta?: object }[];
  /** The resource, undefined when the URI is not one of these (a refusal throws). */
  read(uri: string): { mimeType: string; text: string; _meta?: object } | undefined;
}

export function registerResourceHandlers(
  server: Server,
  lazy: LazyServices,
  templates: ResourceTemplateDefinition[],
  fixed: FixedResourceDefinition[],
  extra?: ExtraResources,
): Disposable {
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

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: templates.map((t) => ({
      name: t.name,
      uriTemplate: t.uriTemplate,
      title: t.title,
      description: t.description,
      mimeType: t.mimeType,
    })),
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const services = await lazy.get();
    return {
      resources: [
        ...(extra?.list() ?? []),
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
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const own = extra?.read(uri);
    if (own) return { contents: [{ uri, ...own }] };
    return { contents: [{ uri, ...(await read(uri)) }] };
  });

  // Changes are followed from the moment the services open (a subscription opens them: it reads first).
  let notifier: ResourceNotifier | undefined;
  let disposed = false;
  lazy.whenOpen((services) => {
    if (!disposed) notifier = new ResourceNotifier(server, services, templates, fixed);
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await read(request.params.uri);
    notifier?.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
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
