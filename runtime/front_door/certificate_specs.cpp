#include "runtime/front_door/certificate_specs.h"

#include "runtime/base/text_file.h"

namespace rift::front_door {

namespace {

using Specs = std::vector<CertificateSpec>;

// One of `path_key` (a file) or `pem_key` (PEM text), exactly.
std::variant<std::pair<std::string, std::string>, std::string> pem_from(const ir::Json& entry,
                                                                        const char* path_key,
                                                                        const char* pem_key) {
  const auto path = entry.find(path_key);
  const auto pem = entry.find(pem_key);
  const bool has_path = path != entry.end() && !path->is_null();
  const bool has_pem = pem != entry.end() && !pem->is_null();
  if (has_path == has_pem) {
    return std::string("give exactly one of '") + path_key + "' (a PEM file) and '" + pem_key +
           "' (PEM text)";
  }
  const ir::Json& given = has_path ? *path : *pem;
  if (!given.is_string() || given.get_ref<const std::string&>().empty()) {
    return std::string("'") + (has_path ? path_key : pem_key) + "' must be a non-empty string";
  }
  const std::string& text = given.get_ref<const std::string&>();
  if (has_pem) return std::pair<std::string, std::string>(text, "inline");
  auto contents = read_text_file(text);
  if (!contents) return "cannot read " + text;
  return std::pair<std::string, std::string>(std::move(*contents), text);
}

std::variant<CertificateSpec, std::string> read_entry(const ir::Json& entry) {
  if (!entry.is_object()) {
    return std::string("must be an object with certPath|cert and keyPath|key");
  }
  for (const auto& [name, value] : entry.items()) {
    if (name != "certPath" && name != "cert" && name != "keyPath" && name != "key" &&
        name != "hosts" && name != "default") {
      return "unknown field '" + name + "'";
    }
  }
  CertificateSpec spec;
  auto cert = pem_from(entry, "certPath", "cert");
  if (auto* error = std::get_if<std::string>(&cert)) return *error;
  auto key = pem_from(entry, "keyPath", "key");
  if (auto* error = std::get_if<std::string>(&key)) return *error;
  spec.cert_pem = std::move(std::get<0>(cert).first);
  spec.source = std::move(std::get<0>(cert).second);
  spec.key_pem = std::move(std::get<0>(key).first);
  if (auto hosts = entry.find("hosts"); hosts != entry.end() && !hosts->is_null()) {
    if (!hosts->is_array()) return std::string("'hosts' must be a list of host names");
    for (const auto& host : *hosts) {
      if (!host.is_string()) return std::string("'hosts' must be a list of host names");
      spec.hosts.push_back(host.get<std::string>());
    }
  }
  if (auto is_default = entry.find("default"); is_default != entry.end()) {
    if (!is_default->is_boolean()) return std::string("'default' must be true or false");
    spec.is_default = is_default->get<bool>();
  }
  return spec;
}

}  // namespace

std::variant<Specs, std::string> read_certificate_block(const ir::Json& block) {
  const ir::Json* list = &block;
  if (block.is_object()) {
    auto certificates = block.find("certificates");
    if (certificates == block.end() || block.size() != 1) {
      return std::string("expected {\"certificates\": [...]}");
    }
    list = &*certificates;
  }
  if (!list->is_array()) return std::string("'certificates' must be a list");
  if (list->empty()) return std::string("'certificates' must name at least one certificate");
  Specs specs;
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto spec = read_entry((*list)[i]);
    if (auto* error = std::get_if<std::string>(&spec)) {
      return "certificates[" + std::to_string(i) + "]: " + *error;
    }
    specs.push_back(std::move(std::get<CertificateSpec>(spec)));
  }
  return specs;
}

std::variant<Specs, std::string> read_certificate_files(const std::string& cert_path,
                                                        const std::string& key_path) {
  CertificateSpec spec;
  auto cert = read_text_file(cert_path);
  if (!cert) return "cannot read the front door's certificate " + cert_path;
  auto key = read_text_file(key_path);
  if (!key) return "cannot read the front door's key " + key_path;
  spec.cert_pem = std::move(*cert);
  spec.key_pem = std::move(*key);
  spec.source = cert_path;
  spec.is_default = true;
  return Specs{std::move(spec)};
}

}  // namespace rift::front_door
