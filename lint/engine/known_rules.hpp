// The old name of lint/engine/parse_errors.hpp, kept only for lint/engine/lint.cpp,
// lint/mcp/mcp_server.cpp and lint/lsp/lsp_features.cpp, which are being edited on other branches:
// include parse_errors.hpp, and delete this file once those three do.
#pragma once

#include "lint/engine/parse_errors.hpp"
