#include "model/pytorch_export.h"
#include "forward/stage_names.h"

#include "call/python_repr.h"
#include "forward/book_sources.h"
#include "io/safetensors.h"

#include <QFile>

namespace attnlab::ui {

namespace {

QString pythonSource(const QString& name)
{
    QFile file(QStringLiteral(":/pytorch/%1.py").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("# (missing resource %1.py)\n").arg(name);
    return QString::fromUtf8(file.readAll());
}

QString pythonString(const QString& text)
{
    QString out = text;
    out.replace(QLatin1String("\\"), QLatin1String("\\\\")).replace(QLatin1String("\""), QLatin1String("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

} // namespace

ExperimentSpec effectiveSpecOf(const ExperimentSpec& spec, bool bookInput)
{
    ExperimentSpec s = spec;
    s.input = bookInput && book_input_fits(spec.config, spec.num_tokens) ? InputSource::Book : InputSource::Random;
    return s;
}

QString pytorchScript(const Config& config, const QString& weightsPath)
{
    const QString call = QString::fromStdString(positional_call(config));
    QString py;
    py += QStringLiteral("# %1, exported by Attention Lab: the %2 class, the app's weights and input.\n")
              .arg(call, config.is_grouped() ? QStringLiteral("project's") : QStringLiteral("book's"));
    py += QStringLiteral("# Run it with PyTorch installed: python3 this_file.py [values.txt]\n");
    py += QStringLiteral("import sys\n\nimport torch\nimport torch.nn as nn\n\n\n");
    // The classes exactly as resources/pytorch holds them, compiled in (forward/book_sources.h).
    if (config.kind == ModuleKind::MultiHeadAttentionWrapper)
        py += QString::fromUtf8(book_source(ModuleKind::CausalAttention)) + QStringLiteral("\n\n");
    py += QString::fromUtf8(book_source(config.kind)) + QStringLiteral("\n\n");
    py += pythonSource(QStringLiteral("load_safetensors")) + QStringLiteral("\n\n");
    py += QStringLiteral("WEIGHTS = %1\n\n").arg(pythonString(weightsPath));
    py += QStringLiteral("torch.manual_seed(123)\n");
    py += QStringLiteral("module = %1\n").arg(call);
    py += QStringLiteral("tensors = load_safetensors(WEIGHTS)\n");
    py += QStringLiteral("x = tensors.pop(\"x\")  # the input the app used\n");
    py += QStringLiteral("missing, unexpected = module.load_state_dict(tensors, strict=False)\n");
    py += QStringLiteral("# The causal mask is a buffer the constructor builds, so the file does not carry it.\n");
    py +=
        QStringLiteral("assert not unexpected and all(k.endswith(\"mask\") for k in missing), (missing, unexpected)\n");
    py += QStringLiteral("module.eval()\n");
    py += QStringLiteral("with torch.no_grad():\n    context_vecs = module(x)\n");
    py += QStringLiteral("print(\"x:\", tuple(x.shape))\n");
    py += QStringLiteral("print(\"output:\", tuple(context_vecs.shape))\n");
    py += QStringLiteral("print(context_vecs)\n");
    py +=
        QStringLiteral("# Given a file name, also write every output value, one per line, to compare with the app.\n");
    py += QStringLiteral("if len(sys.argv) > 1:\n");
    py += QStringLiteral("    with open(sys.argv[1], \"w\") as f:\n");
    py += QStringLiteral("        f.write(\"\\n\".join(repr(v) for v in context_vecs.flatten().tolist()) + \"\\n\")\n");
    return py;
}

void exportWeightsAndInput(const ExperimentSpec& spec, const QString& path)
{
    const Experiment experiment = prepare(spec);
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const ParameterSpec& p : parameter_specs(spec.config))
        tensors.emplace_back(p.name, experiment.weights.at(p.name));
    tensors.emplace_back(stage::x, experiment.x);
    write_safetensors(path.toStdString(), tensors,
                      {{"call", positional_call(spec.config)},
                       {"layout", "torch"},
                       {"exported_by", "attention-lab"},
                       {"seed", std::to_string(spec.seed)}});
}

} // namespace attnlab::ui
