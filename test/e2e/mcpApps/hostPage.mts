// A small MCP Apps host, as a chat client is one: the official AppBridge renders a ui:// page in
// a sandboxed frame and forwards the page's tools/call to the server with the host's own
// connection (here the test's SDK client, reached through window.hostCallTool).
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

interface HostWindow {
  hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  showApp(html: string, toolInput: Record<string, unknown>, toolResult: unknown): Promise<void>;
}

const w = window as unknown as HostWindow;

w.showApp = async (html, toolInput, toolResult) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.width = '1100px';
  frame.style.height = '760px';
  frame.dataset.testid = 'app-frame';
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: 'test host', version: '1' }, { serverTools: {} });
  bridge.oncalltool = async (params) => (await w.hostCallTool(params)) as never;
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: toolInput });
    void bridge.sendToolResult(toolResult as never);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
};
