// `riftc explain CONFIG [--imposter PORT] --request 'METHOD /path?q' [-H 'K: V']... [-d BODY]
// [--format text|json]`: which stub of an imposter answers a request, and why the others do not.
//
// The request goes through the server's own request builder (path normalisation, query
// decoding, form parsing, body decoding), and the stubs through the server's parser and planner,
// so the answer is the one `rift start --configfile CONFIG` would give. Exit status: 0 when a stub
// matches, 1 on a miss, 2 on usage or config errors.
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ascii.h"
#include "compiler/explain.h"
#include "compiler/plan.h"
#include "frontends/config_file.h"
#include "frontends/mountebank_json.h"
#include "runtime/http/message.h"
#include "runtime/http/request_builder.h"
#include "runtime/imposter/flow_id.h"
#include "tools/riftc_commands.h"

namespace {

constexpr int kMatched = 0;
constexpr int kMissed = 1;
constexpr int kUsageError = 2;

constexpr const char* kUsage =
    "usage: riftc explain CONFIG [--imposter PORT] --request 'METHOD /path?query'\n"
    "                    [-H 'Name: value']... [-d BODY | -d @FILE] [--format text|json]\n"
    "                    [--near-misses N] [--noParse]\n"
    "Only the headers given with -H are sent; -d sets no Content-Type.\n"
    "Exit status: 0 a stub matches, 1 no stub matches, 2 usage or config error.\n";

struct ExplainArgs {
  std::string config;
  std::optional<int> port;
  std::string request_line;
  rift::KeyValues headers;
  std::string body;
  std::string format = "text";
  size_t near_misses = 3;
  bool no_parse = false;
};

void complain(const std::string& message) {
  std::cerr << "riftc explain: " << message << '\n';
}

std::optional<int> parse_number(const std::string& text, int low, int high) {
  size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || value < low || value > high) return std::nullopt;
  return value;
}

// "Name: value" -> (Name, value), trimming the spaces after the colon as curl does.
std::optional<std::pair<std::string, std::string>> parse_header(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  size_t start = colon + 1;
  while (start < text.size() && (text[start] == ' ' || text[start] == '\t')) ++start;
  return std::make_pair(text.substr(0, colon), text.substr(start));
}

// -d @FILE reads the body from a file, as curl does.
std::optional<std::string> body_argument(const std::string& value) {
  if (value.empty() || value[0] != '@') return value;
  std::ifstream file(value.substr(1), std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::optional<ExplainArgs> parse_args(const std::vector<std::string>& args) {
  ExplainArgs out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--imposter" && has_value) {
      out.port = parse_number(args[++i], 0, 65535);
      if (!out.port) {
        complain("--imposter takes a port number, not '" + args[i] + "'");
        return std::nullopt;
      }
    } else if (arg == "--request" && has_value) {
      out.request_line = args[++i];
    } else if ((arg == "-H" || arg == "--header") && has_value) {
      auto header = parse_header(args[++i]);
      if (!header) {
        complain("-H takes 'Name: value', not '" + args[i] + "'");
        return std::nullopt;
      }
      out.headers.push_back(std::move(*header));
    } else if ((arg == "-d" || arg == "--data") && has_value) {
      auto body = body_argument(args[++i]);
      if (!body) {
        complain("cannot read the body file '" + args[i].substr(1) + "'");
        return std::nullopt;
      }
      out.body = std::move(*body);
    } else if (arg == "--format" && has_value) {
      out.format = args[++i];
      if (out.format != "text" && out.format != "json") {
        complain("--format must be text or json, not '" + out.format + "'");
        return std::nullopt;
      }
    } else if (arg == "--near-misses" && has_value) {
      const auto count = parse_number(args[++i], 0, 1000000);
      if (!count) {
        complain("--near-misses takes a count, not '" + args[i] + "'");
        return std::nullopt;
      }
      out.near_misses = static_cast<size_t>(*count);
    } else if (arg == "--noParse") {
      out.no_parse = true;
    } else if (!arg.empty() && arg[0] == '-') {
      complain("unknown or incomplete option '" + arg + "'");
      std::cerr << kUsage;
      return std::nullopt;
    } else if (out.config.empty()) {
      out.config = arg;
    } else {
      complain("more than one CONFIG ('" + out.config + "', '" + arg + "')");
      return std::nullopt;
    }
  }
  if (out.config.empty() || out.request_line.empty()) {
    if (out.config.empty()) complain("missing CONFIG");
    if (out.request_line.empty()) complain("missing --request 'METHOD /path?query'");
    std::cerr << kUsage;
    return std::nullopt;
  }
  return out;
}

// The wire message the server would have parsed: "GET /a?b=1" plus headers and body.
std::optional<rift::http::Message> build_message(const ExplainArgs& args) {
  const std::string& line = args.request_line;
  const size_t space = line.find(' ');
  rift::http::Message message;
  if (space == std::string::npos || space == 0) {
    complain("--request takes 'METHOD /path?query', not '" + line + "'");
    return std::nullopt;
  }
  message.method = rift::ascii::upper(line.substr(0, space));
  message.target = line.substr(line.find_first_not_of(' ', space));
  if (message.target.empty() || message.target[0] != '/') {
    complain("the request target must start with '/', not '" + message.target + "'");
    return std::nullopt;
  }
  message.headers = args.headers;
  message.body = args.body;
  message.remote_address = "127.0.0.1";
  return message;
}

// The imposter to explain: the one on --imposter PORT, or the config's only imposter.
std::optional<rift::ir::Imposter> load_imposter(const ExplainArgs& args) {
  rift::frontends::ConfigOptions config_options;
  config_options.no_parse = args.no_parse;
  auto loaded = rift::frontends::load_config_file(args.config, config_options);
  if (auto* error = std::get_if<rift::frontends::ConfigError>(&loaded)) {
    complain(error->to_string());
    return std::nullopt;
  }
  const auto& documents = std::get<std::vector<rift::ir::Json>>(loaded);
  std::vector<size_t> chosen;
  std::string ports;
  for (size_t i = 0; i < documents.size(); ++i) {
    const auto& document = documents[i];
    const auto port = document.is_object() ? document.find("port") : document.end();
    const bool has_port = document.is_object() && port != document.end() && port->is_number();
    ports += (ports.empty() ? "" : ", ") + (has_port ? port->dump() : "(none)");
    if (!args.port || (has_port && port->get<int>() == *args.port)) chosen.push_back(i);
  }
  if (chosen.empty()) {
    complain(args.config + ": " +
             (args.port
                  ? "no imposter on port " + std::to_string(*args.port) + " (ports: " + ports + ")"
                  : std::string("no imposters")));
    return std::nullopt;
  }
  if (chosen.size() > 1) {
    complain(args.config + " declares several imposters (ports: " + ports +
             "); choose one with --imposter PORT");
    return std::nullopt;
  }
  rift::frontends::ParseOptions parse_options;
  parse_options.allow_injection = true;  // nothing is served; inject predicates are reported
  auto parsed = rift::frontends::parse_imposter(documents[chosen.front()], parse_options);
  if (auto* errors = std::get_if<rift::MbErrors>(&parsed)) {
    for (const auto& error : *errors) complain(args.config + ": " + error.message);
    return std::nullopt;
  }
  return std::get<rift::ir::Imposter>(std::move(parsed));
}

}  // namespace

int riftc_explain(const std::vector<std::string>& args) {
  for (const auto& arg : args) {
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return kMatched;
    }
  }
  const auto options = parse_args(args);
  if (!options) return kUsageError;
  const auto message = build_message(*options);
  if (!message) return kUsageError;
  const auto imposter = load_imposter(*options);
  if (!imposter) return kUsageError;

  auto built = rift::plan::build(imposter->stubs, rift::request_protocol(imposter->protocol));
  if (auto* error = std::get_if<rift::MbError>(&built)) {
    complain(options->config + ": " + error->message);
    return kUsageError;
  }
  const auto& tree = std::get<std::shared_ptr<const rift::plan::Tree>>(built);
  rift::Request request = rift::http::build_request(*message);
  // The flow id the served imposter would give this request (docs/spaces.md).
  rift::assign_flow_id(imposter->flow_id_source, imposter->port.value_or(0), request);
  rift::ExplainOptions explain_options;
  explain_options.near_misses = options->near_misses;
  const rift::ir::Json report = rift::explain(*tree, imposter->stubs, request, explain_options);

  if (options->format == "json") {
    std::cout << report.dump(2) << '\n';
  } else {
    std::cout << rift::explain_to_text(report);
  }
  return report["matched"].is_null() ? kMissed : kMatched;
}
