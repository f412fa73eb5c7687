import { type McpTool } from './mcp-shared';
import { DISCOVER_TOOLS } from './mcp-tools-discover';
import { PLAYER_TOOLS } from './mcp-tools-player';
import { UPDATE_TOOLS } from './mcp-tools-update';

export type { McpTool } from './mcp-shared';

/**
 * Every MCP tool, in the order tools/list answers them: a player's data (mcp-tools-player.ts), search
 * (mcp-tools-discover.ts), the one write (mcp-tools-update.ts).
 */
export const MCP_TOOLS: readonly McpTool[] = [...PLAYER_TOOLS, ...DISCOVER_TOOLS, ...UPDATE_TOOLS];

/** A tool by name. */
export function mcpTool(name: string): McpTool | undefined {
  return MCP_TOOLS.find((t) => t.name === name);
}
