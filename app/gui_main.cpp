// A first window: type a constructor call, see how it binds and what is wrong with it.
// The full main window (stepper, shape diagrams, heatmaps) replaces this.
#include "call_parser.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <QWidget>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QWidget window;
    window.setWindowTitle("Attention Lab");
    auto* layout = new QVBoxLayout(&window);
    auto* call = new QLineEdit("MultiHeadAttention(768, 768, 1024, 0.0, 12)");
    auto* report = new QLabel;
    report->setWordWrap(true);
    layout->addWidget(call);
    layout->addWidget(report);
    auto update = [&] {
        const attnlab::ParsedCall parsed = attnlab::parse_call(call->text().toStdString());
        if (!parsed.ok()) {
            report->setText(QString::fromStdString(parsed.error->message));
            return;
        }
        QString text = QString::fromStdString(attnlab::canonical_call(*parsed.config));
        for (const auto& d : attnlab::validate(*parsed.config))
            text += "\n" + QString::fromStdString(attnlab::severity_name(d.severity) + ": " + d.message);
        report->setText(text);
    };
    QObject::connect(call, &QLineEdit::textChanged, update);
    update();
    window.resize(900, 300);
    window.show();
    return app.exec();
}
