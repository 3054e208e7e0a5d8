// planlint for VS Code: starts `planlint lsp` (the project's Language Server) for Spark plan files
// (language `sparkplan`) and for the JSON files that match `planlint.profileFiles` (Databricks
// Query Profiles), and for nothing else. Every feature (diagnostics, hover, code actions, outline)
// comes from the server; this file only starts it and passes the settings.
import * as vscode from 'vscode';
import {
  DocumentSelector,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

// The settings the server reads (docs/editors.md "Configuration"); empty values are left out so
// that `.planlint.toml` decides.
function serverSettings(): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration('planlint');
  const out: Record<string, unknown> = {};
  for (const key of ['select', 'ignore']) {
    const v = cfg.get<string[]>(key);
    if (Array.isArray(v) && v.length > 0) out[key] = v;
  }
  for (const key of ['severity', 'thresholds', 'globalThresholds']) {
    const v = cfg.get<Record<string, unknown>>(key);
    if (v && typeof v === 'object' && Object.keys(v).length > 0) out[key] = v;
  }
  return out;
}

function documentSelector(): DocumentSelector {
  const cfg = vscode.workspace.getConfiguration('planlint');
  const profiles = cfg.get<string[]>('profileFiles') ?? ['**/*.profile.json'];
  const selector: DocumentSelector = [
    { language: 'sparkplan', scheme: 'file' },
    { language: 'sparkplan', scheme: 'untitled' },
  ];
  for (const pattern of profiles) {
    for (const language of ['json', 'jsonc']) selector.push({ language, scheme: 'file', pattern });
  }
  return selector;
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('planlint');
  const command = cfg.get<string>('path') || 'planlint';
  const executable = { command, args: ['lsp'], transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    initializationOptions: serverSettings(),
    outputChannelName: 'planlint',
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{.planlint.toml,pyproject.toml}'),
    },
  };
  client = new LanguageClient('planlint', 'planlint', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    void vscode.window.showErrorMessage(
      `planlint: could not start \`${command} lsp\` (${String(err)}). Set "planlint.path" to the planlint executable.`);
  }
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  const old = client;
  client = undefined;
  if (old) await old.stop().catch(() => undefined);
  await start(context);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('planlint.restartServer', () => restart(context)),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('planlint')) return;
      if (e.affectsConfiguration('planlint.path') || e.affectsConfiguration('planlint.profileFiles')) {
        await restart(context);
      } else if (client?.isRunning()) {
        // The server takes the settings nested under "planlint", merged as `--select` etc. are.
        await client.sendNotification('workspace/didChangeConfiguration', { settings: { planlint: serverSettings() } });
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
}
