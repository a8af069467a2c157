#include "shell/about_box.h"

#include "tensor/blas_kernel.h"

#include <QCoreApplication>
#include <QMessageBox>

namespace attnlab::ui {

QString aboutText()
{
    return QCoreApplication::translate("AboutBox",
                                       "<p><b>Attention Lab %1</b></p>"
                                       "<p>Multi-head attention as chapter 3 of <i>Build a Large Language Model (From "
                                       "Scratch)</i> builds it, stage by stage, equal to PyTorch.</p>"
                                       "<p>Matrix products: %2.<br>Qt %3.</p>")
        .arg(QCoreApplication::applicationVersion(),
             QString::fromStdString(attnlab::blas_report().sentence()).toHtmlEscaped(),
             QString::fromLatin1(qVersion()));
}

void showAboutBox(QWidget* parent)
{
    QMessageBox::about(parent, QCoreApplication::translate("AboutBox", "About Attention Lab"), aboutText());
}

} // namespace attnlab::ui
