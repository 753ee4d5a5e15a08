#include "codegen/jit/cxx_to_ir.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include "codegen/jit/embedded_contract.h"
#include "codegen/jit/jit_toolchain.h"

namespace rift::jit {
namespace {

// Paths that exist only in the compiler's in-memory file system.
constexpr const char* kRoot = "/rift-jit";
constexpr const char* kContractPath = "/rift-jit/codegen/compiled_module.h";
constexpr const char* kPchPath = "/rift-jit/compiled_module.pch";
constexpr const char* kUnitPath = "/rift-jit/unit.cpp";

// Warnings are the emitter's business (its tests build with -Werror); the JIT reports errors.
// -O1, not -O2: a unit is tables plus a few small functions, O1 already inlines the lookups,
// and O2's pipeline doubles the time to live (docs/jit.md).
const std::vector<std::string> kCommonArgs = {"-std=c++20", "-O1", "-w", "-I", kRoot};

struct Diagnostics {
  std::string text;
  llvm::raw_string_ostream stream{text};
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options =
      llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter printer{stream, options.get()};
  clang::DiagnosticsEngine engine{llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), options,
                                  &printer, /*ShouldOwnClient=*/false};
  std::string take() {
    stream.flush();
    return text.empty() ? "clang failed without a diagnostic" : text;
  }
};

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files_with(
    std::initializer_list<std::pair<const char*, std::string_view>> files) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto& [path, text] : files) {
    memory->addFile(
        path, /*ModificationTime=*/0,
        llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), path));
  }
  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);
  return overlay;
}

// The cc1 arguments the driver would run for `clang++ ARGS`: it knows where the resource and
// libstdc++ headers are, which a bare CompilerInvocation does not.
std::variant<std::vector<std::string>, std::string> cc1_args_for(
    const std::vector<std::string>& args, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files) {
  Diagnostics diagnostics;
  clang::driver::Driver driver(kJitClangPath, llvm::sys::getProcessTriple(), diagnostics.engine,
                               "rift jit", files);
  driver.setCheckInputsExist(false);
  std::vector<const char*> argv = {kJitClangPath};
  for (const auto& arg : args) argv.push_back(arg.c_str());
  std::unique_ptr<clang::driver::Compilation> compilation(driver.BuildCompilation(argv));
  if (!compilation || diagnostics.engine.hasErrorOccurred()) return diagnostics.take();
  const auto& jobs = compilation->getJobs();
  if (jobs.size() != 1) return std::string("the clang driver planned more than one job");
  std::vector<std::string> out;
  for (const char* arg : jobs.begin()->getArguments()) out.emplace_back(arg);
  if (!out.empty() && out.front() == "-cc1") out.erase(out.begin());
  // The driver asks cc1 to skip freeing its state, a shortcut for a process about to exit; here
  // it would leak every compile's AST and module (megabytes per admin edit).
  std::erase(out, std::string("-disable-free"));
  return out;
}

// Runs `action` on the invocation `args` describes, over `files`.
bool run(const std::vector<std::string>& args,
         llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files, clang::FrontendAction& action,
         Diagnostics& diagnostics) {
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, diagnostics.engine)) {
    return false;
  }
  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.createDiagnostics(&diagnostics.printer, /*ShouldOwnClient=*/false);
  compiler.createFileManager(std::move(files));
  return compiler.ExecuteAction(action);
}

}  // namespace

CxxToIr::CxxToIr(std::vector<std::string> cc1_args, std::string pch)
    : cc1_args_(std::move(cc1_args)), pch_(std::move(pch)) {}

std::variant<std::unique_ptr<CxxToIr>, std::string> CxxToIr::create() {
  // GeneratePCHAction writes a real file; it is read back into memory and removed at once.
  llvm::SmallString<128> scratch;
  if (auto error = llvm::sys::fs::createUniqueDirectory("rift-jit", scratch)) {
    return "cannot create a scratch directory: " + error.message();
  }
  const std::string pch_file = std::string(scratch) + "/compiled_module.pch";
  auto contract_files = files_with({{kContractPath, kEmbeddedContract}});

  std::vector<std::string> pch_args = kCommonArgs;
  // Templates the header uses (std::vector<std::string>, string_view) are instantiated once, in
  // the PCH, instead of at the end of every unit.
  pch_args.insert(pch_args.end(), {"-fpch-instantiate-templates", "-x", "c++-header", kContractPath,
                                   "-o", pch_file});
  auto pch_cc1 = cc1_args_for(pch_args, contract_files);
  if (auto* error = std::get_if<std::string>(&pch_cc1)) return "precompiling: " + *error;

  Diagnostics diagnostics;
  clang::GeneratePCHAction generate;
  const bool built =
      run(std::get<std::vector<std::string>>(pch_cc1), contract_files, generate, diagnostics);
  auto buffer = llvm::MemoryBuffer::getFile(pch_file, /*IsText=*/false);
  llvm::sys::fs::remove(pch_file);
  llvm::sys::fs::remove(scratch);
  if (!built || !buffer) return "precompiling the Module contract: " + diagnostics.take();

  std::vector<std::string> unit_args = kCommonArgs;
  unit_args.insert(unit_args.end(), {"-include-pch", kPchPath, "-fsyntax-only", kUnitPath});
  auto unit_cc1 = cc1_args_for(unit_args, contract_files);
  if (auto* error = std::get_if<std::string>(&unit_cc1)) return *error;
  return std::make_unique<CxxToIr>(std::get<std::vector<std::string>>(std::move(unit_cc1)),
                                   std::string((*buffer)->getBuffer()));
}

std::variant<llvm::orc::ThreadSafeModule, std::string> CxxToIr::compile(
    std::string_view source) const {
  auto files =
      files_with({{kContractPath, kEmbeddedContract}, {kPchPath, pch_}, {kUnitPath, source}});
  auto context = std::make_unique<llvm::LLVMContext>();
  clang::EmitLLVMOnlyAction action(context.get());
  Diagnostics diagnostics;
  if (!run(cc1_args_, files, action, diagnostics)) return diagnostics.take();
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module) return diagnostics.take();
  return llvm::orc::ThreadSafeModule(std::move(module), std::move(context));
}

}  // namespace rift::jit
